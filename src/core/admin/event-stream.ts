import type { InstanceCounters } from '../service/emulator-state.js';
import type { EventHub } from './event-hub.js';
import type { EmulatorEvent } from '../records/records.js';
import { formatServerSentEvent, SSE_PREAMBLE } from './server-sent-events.js';

/** Bytes an event reader may have waiting before it is cut off, by default: 1 MiB. */
export const EVENT_QUEUE_BYTES = 1_048_576;

/** The largest number of event readers at once, by default. */
export const MAX_EVENT_READERS = 32;

const encoder = new TextEncoder();
let lastEvent: EmulatorEvent | undefined;
let lastText = '';

/**
 * An event as the text of a server-sent event. Every reader is handed the same event object in
 * turn, so it is serialised once, not once per reader.
 */
function eventText(event: EmulatorEvent): string {
  if (event !== lastEvent) {
    lastText = formatServerSentEvent(event);
    lastEvent = event;
  }
  return lastText;
}

/** Why a reader was cut off; also the text of the stream's error. */
export const READER_FELL_BEHIND =
  'the event reader fell behind (more than its queue of events waiting); reconnect to resume';

/**
 * Opens one reader's stream of server-sent events. The stream is pulled by its transport: the
 * events that came since its last read wait as text, up to `maxQueuedBytes` (counted in
 * characters), and a read takes them all as one chunk, so a transport that reads once per turn of
 * its event loop writes a burst of events at once (its bytes are the reader's own). A reader that
 * lets the text fill is cut off (the stream errors, the transport closes the connection) and
 * counted, so a reader that never reads costs a bounded amount of memory and never slows the
 * emulator.
 */
export function openEventStream(
  events: EventHub<EmulatorEvent>,
  counters: InstanceCounters,
  maxQueuedBytes: number = EVENT_QUEUE_BYTES,
): ReadableStream<Uint8Array> {
  let unsubscribe: (() => void) | undefined;
  let waiting: Array<string> = [SSE_PREAMBLE];
  let waitingLength = SSE_PREAMBLE.length;
  // A read waiting for an event, answered by the next one.
  let reading: (() => void) | undefined;
  const stop = () => {
    if (unsubscribe === undefined) return;
    unsubscribe();
    unsubscribe = undefined;
    counters.readers--;
  };
  const hand = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    controller.enqueue(encoder.encode(waiting.length === 1 ? waiting[0] : waiting.join('')));
    waiting = [];
    waitingLength = 0;
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        counters.readers++;
        unsubscribe = events.subscribe((event) => {
          const text = eventText(event);
          if (waitingLength + text.length > maxQueuedBytes) {
            stop();
            counters.dropped++;
            controller.error(new Error(READER_FELL_BEHIND));
            return;
          }
          waiting.push(text);
          waitingLength += text.length;
          if (reading === undefined) return;
          const answered = reading;
          reading = undefined;
          hand(controller);
          answered();
        });
      },
      pull(controller) {
        if (waiting.length > 0) return hand(controller);
        return new Promise<void>((resolve) => (reading = resolve));
      },
      cancel: stop,
    },
    { highWaterMark: 0 },
  );
}
