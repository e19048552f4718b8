import type { Announcer } from './admin/admin.js';
import { createEventHub, type EventHub } from './admin/event-hub.js';
import type { EmulatorEvent } from './records/records.js';
import type { StoreChannel } from './store/emulator-store.js';

/** Who hears what an emulator does. */
export interface EmulatorEvents {
  /** This instance's listeners (its log, an in-process screen): they hear its own events. */
  local: EventHub<EmulatorEvent>;
  /**
   * This instance's listeners that complete request records themselves, later (`uas serve
   * --record`, which does it as it writes a batch): they may hear records still incomplete.
   */
  deferring: EventHub<EmulatorEvent>;
  /** Event readers (`GET /__uas/events`): they hear those of every instance sharing the store. */
  readers: EventHub<EmulatorEvent>;
  /** Where the emulator announces what happens: `all` here and, through the store, elsewhere. */
  announcer: Announcer;
}

/**
 * The listeners and readers of an emulator whose store shares events on `channel`, if any.
 * `wholeReaders` says whether a reader reads whole request records (not only their summaries).
 */
export function createEmulatorEvents(
  channel: StoreChannel | undefined,
  wholeReaders: () => boolean = () => true,
): EmulatorEvents {
  // How many hubs have listeners, kept as they come and go: `active` is asked on every request,
  // where asking each hub (three getters, three sizes of a Set) took a tenth of a simulated one.
  const listened = { all: 0, here: 0 };
  const onHere = (active: boolean) => {
    const step = active ? 1 : -1;
    listened.all += step;
    listened.here += step;
  };
  const local = createEventHub<EmulatorEvent>(undefined, onHere);
  const deferring = createEventHub<EmulatorEvent>(undefined, onHere);
  const readers = createEventHub<EmulatorEvent>(undefined, (active) => {
    listened.all += active ? 1 : -1;
    channel?.watching(active);
  });
  const all: Announcer['all'] = {
    get active() {
      return listened.all > 0 || (channel !== undefined && channel.watched);
    },
    get whole() {
      return local.active || channel?.watched === true || wholeReaders();
    },
    emit(event) {
      local.emit(event);
      deferring.emit(event);
      readers.emit(event);
      if (channel?.watched === true) void channel.send({ type: 'event', event });
    },
  };
  const here: Announcer['here'] = {
    get active() {
      return listened.here > 0;
    },
    emit(event) {
      local.emit(event);
      deferring.emit(event);
    },
  };
  return { local, deferring, readers, announcer: { all, here } };
}
