import type { InstanceCounters } from '../service/emulator-state.js';
import type { EventHub } from './event-hub.js';
import {
  SUMMARY_FIELDS,
  type EmulatorEvent,
  type RequestRecord,
  type RequestSummary,
} from '../records/records.js';
import { scrubSecrets } from '../records/redact.js';
import { formatServerSentEvent, SSE_PREAMBLE } from './server-sent-events.js';

/** Bytes an event reader may have waiting before it is cut off, by default: 1 MiB. */
export const EVENT_QUEUE_BYTES = 1_048_576;

/** The largest number of event readers at once, by default. */
export const MAX_EVENT_READERS = 32;

/** What request events carry: whole records, or {@link RequestSummary summaries}. */
export type RequestEvents = 'full' | 'summary';

const encoder = new TextEncoder();

/**
 * Serialises events as server-sent events, once each however many readers get them: every
 * reader is handed the same event object in turn, and the text of the last one is kept.
 */
function lastEventText(format: (event: EmulatorEvent) => string): (event: EmulatorEvent) => string {
  let lastEvent: EmulatorEvent | undefined;
  let lastText = '';
  return (event) => {
    if (event !== lastEvent) {
      lastText = format(event);
      lastEvent = event;
    }
    return lastText;
  };
}

const fullText = lastEventText(formatServerSentEvent);

/** The summary of a record: its fields named in {@link SUMMARY_FIELDS}, the bucket scrubbed. */
export function requestSummary(record: RequestRecord, secrets: readonly string[]): RequestSummary {
  const summary: Record<string, unknown> = {};
  for (const name of SUMMARY_FIELDS) summary[name] = record[name];
  if (record.bucket !== undefined) summary.bucket = scrubSecrets(record.bucket, secrets);
  return summary as RequestSummary;
}

/** The options of one reader's stream. */
export interface EventStreamOptions {
  /** Characters of events it may leave waiting before it is cut off. */
  maxQueuedBytes?: number | undefined;
  /** @default 'full' */
  requests?: RequestEvents | undefined;
  /** Tokens a summary's bucket must not show (a whole record is scrubbed as it is completed). */
  secrets?: readonly string[] | undefined;
}

/** The texts of events for readers of summaries, one function per set of secrets. */
const summaryTexts = new WeakMap<readonly string[], (event: EmulatorEvent) => string>();

function summaryText(secrets: readonly string[]): (event: EmulatorEvent) => string {
  let text = summaryTexts.get(secrets);
  if (text === undefined) {
    text = lastEventText((event) =>
      event.type === 'request'
        ? formatServerSentEvent({
            ...event,
            request: requestSummary(event.request, secrets) as RequestRecord,
          })
        : formatServerSentEvent(event),
    );
    summaryTexts.set(secrets, text);
  }
  return text;
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
  options: EventStreamOptions = {},
): ReadableStream<Uint8Array> {
  const maxQueuedBytes = options.maxQueuedBytes ?? EVENT_QUEUE_BYTES;
  const summaries = options.requests === 'summary';
  const eventText = summaries ? summaryText(options.secrets ?? []) : fullText;
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
    if (!summaries) counters.wholeReaders--;
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
        if (!summaries) counters.wholeReaders++;
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
