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
  const local = createEventHub<EmulatorEvent>();
  const deferring = createEventHub<EmulatorEvent>();
  const readers = createEventHub<EmulatorEvent>(undefined, (active) => channel?.watching(active));
  const all: Announcer['all'] = {
    get active() {
      return local.active || deferring.active || readers.active || channel?.watched === true;
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
      return local.active || deferring.active;
    },
    emit(event) {
      local.emit(event);
      deferring.emit(event);
    },
  };
  return { local, deferring, readers, announcer: { all, here } };
}
