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
 * An event as the bytes of a server-sent event. Every reader is handed the same event object in
 * turn, so it is serialised once, not once per reader; each reader gets its own bytes (a reader
 * may keep or hand on the chunks it takes).
 */
function encodeEvent(event: EmulatorEvent): Uint8Array {
  if (event !== lastEvent) {
    lastText = formatServerSentEvent(event);
    lastEvent = event;
  }
  return encoder.encode(lastText);
}

/** Why a reader was cut off; also the text of the stream's error. */
export const READER_FELL_BEHIND =
  'the event reader fell behind (more than its queue of events waiting); reconnect to resume';

/**
 * Opens one reader's stream of server-sent events. The stream is pulled by its transport: what
 * the reader has not taken waits in a queue of at most `maxQueuedBytes`. A reader that lets it
 * fill is cut off (the stream errors, the transport closes the connection) and counted, so a
 * reader that never reads costs a bounded amount of memory and never slows the emulator.
 */
export function openEventStream(
  events: EventHub<EmulatorEvent>,
  counters: InstanceCounters,
  maxQueuedBytes: number = EVENT_QUEUE_BYTES,
): ReadableStream<Uint8Array> {
  let unsubscribe: (() => void) | undefined;
  const stop = () => {
    if (unsubscribe === undefined) return;
    unsubscribe();
    unsubscribe = undefined;
    counters.readers--;
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(SSE_PREAMBLE));
        counters.readers++;
        unsubscribe = events.subscribe((event) => {
          const chunk = encodeEvent(event);
          if ((controller.desiredSize ?? 0) < chunk.byteLength) {
            stop();
            counters.dropped++;
            controller.error(new Error(READER_FELL_BEHIND));
            return;
          }
          controller.enqueue(chunk);
        });
      },
      cancel: stop,
    },
    { highWaterMark: maxQueuedBytes, size: (chunk) => chunk.byteLength },
  );
}
