import type { EmulatorEvent } from '../../core/records/records.js';
import { readEvent } from '../../core/records/read-event.js';
import type { SharedChange } from '../../core/store/emulator-store.js';
import { parseJson } from './redis-decoders.js';

/** The largest message read from a channel. */
const MAX_MESSAGE_BYTES = 32 * 1_048_576;

/** What another instance sent, as this one can use it. */
export type ChannelMessage =
  | { kind: 'event'; event: EmulatorEvent }
  | { kind: 'clock'; ms: number }
  /** `version`: of the live state, for a config change (see `uas:meta`), when it came with one. */
  | { kind: 'change'; change: SharedChange; version?: number | undefined };

/**
 * Reads a message heard on `channel` (its text as sent: `{ from, event | clock | change }`, a
 * config change with the `version` it was kept as):
 * undefined for one this instance sent (`instance`), one too large, not JSON or of no known
 * kind, and for an event while this instance has no reader of events (`readersHere`) or one an
 * emulator could not have sent. A request event is marked with the instance that sent it.
 * Changes are checked by whoever applies them. Pure.
 */
export function readChannelMessage(
  channel: string,
  text: string,
  context: { instance: string; eventsChannel: string; readersHere: boolean },
): ChannelMessage | undefined {
  if (text.length > MAX_MESSAGE_BYTES) return undefined;
  const message = parseJson(text) as Record<string, unknown> | undefined;
  if (typeof message !== 'object' || message === null || message.from === context.instance)
    return undefined;
  if (channel === context.eventsChannel) {
    const event = context.readersHere ? readEvent(message.event) : undefined;
    if (event === undefined) return undefined;
    // A request of that instance: its id is in that instance's journal.
    if (event.type === 'request') event.from = String(message.from).slice(0, 64);
    return { kind: 'event', event };
  }
  if (typeof message.clock === 'number') return { kind: 'clock', ms: message.clock };
  const change = message.change as SharedChange | undefined;
  if (typeof change !== 'object' || change === null) return undefined;
  const { version } = message;
  return {
    kind: 'change',
    change,
    version:
      Number.isSafeInteger(version) && (version as number) > 0 ? (version as number) : undefined,
  };
}
