import type { InstanceCounters } from '../service/emulator-state.js';
import type { EventHub } from './event-hub.js';
import type { EmulatorEvent, RequestRecord } from '../records/records.js';
import { scrubSecrets } from '../records/redact.js';
import { formatServerSentEvent, SSE_PREAMBLE, type RequestsEvent } from './server-sent-events.js';

/** Bytes an event reader may have waiting before it is cut off, by default: 1 MiB. */
export const EVENT_QUEUE_BYTES = 1_048_576;

/**
 * The least milliseconds between two writes to a reader of summaries: what comes meanwhile is
 * written as one event (the dashboard applies what it gets at most five times a second anyway).
 */
export const SUMMARY_PACE_MS = 100;

/** Summaries waiting at most: past these, they are serialised (and counted at their length). */
const SUMMARIES_WAITING = 1000;

/** The largest number of event readers at once, by default. */
export const MAX_EVENT_READERS = 32;

/**
 * What request events carry: whole records, or summaries (`RequestSummary`), the requests of one
 * read in one `requests` event.
 */
export type RequestEvents = 'full' | 'summary';

const encoder = new TextEncoder();

let lastEvent: EmulatorEvent | undefined;
let lastText = '';

/**
 * An event as the text of a server-sent event. Every reader is handed the same event object in
 * turn, so it is serialised once, not once per reader.
 */
function fullText(event: EmulatorEvent): string {
  if (event !== lastEvent) {
    lastText = formatServerSentEvent(event);
    lastEvent = event;
  }
  return lastText;
}

/**
 * The summary of a record: the fields of `RequestSummary`, the bucket scrubbed, and `from` when
 * another instance answered it.
 */
function requestSummary(
  record: RequestRecord,
  secrets: readonly string[],
  from: string | undefined,
): SummaryOfRequest {
  // Written out, in the order of RequestSummary: one shape for every summary, made fast.
  const summary: SummaryOfRequest = {
    id: record.id,
    at: record.at,
    operation: record.operation,
    status: record.status,
    outcome: record.outcome,
    level: record.level,
    bucket: record.bucket === undefined ? undefined : scrubSecrets(record.bucket, secrets),
  };
  if (from !== undefined) summary.from = from;
  return summary;
}

/** Characters a request's summary is counted for in a reader's queue, before it is written. */
const SUMMARY_CHARS = 256;

type SummaryOfRequest = RequestsEvent['requests'][number];

/** The options of one reader's stream. */
export interface EventStreamOptions {
  /** Characters of events it may leave waiting before it is cut off. */
  maxQueuedBytes?: number | undefined;
  /** @default 'full' */
  requests?: RequestEvents | undefined;
  /** Tokens a summary's bucket must not show (a whole record is scrubbed as it is completed). */
  secrets?: readonly string[] | undefined;
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
 * emulator. A reader of summaries gets the requests of each read as one `requests` event, their
 * summaries made and serialised when it reads (each counted as {@link SUMMARY_CHARS} meanwhile).
 */
export function openEventStream(
  events: EventHub<EmulatorEvent>,
  counters: InstanceCounters,
  options: EventStreamOptions = {},
): ReadableStream<Uint8Array> {
  const maxQueuedBytes = options.maxQueuedBytes ?? EVENT_QUEUE_BYTES;
  const summaries = options.requests === 'summary';
  const secrets = options.secrets ?? [];
  let unsubscribe: (() => void) | undefined;
  let waiting: Array<string> = [SSE_PREAMBLE];
  let waitingLength = SSE_PREAMBLE.length;
  // Request events of a reader of summaries, written as one `requests` event when read.
  let requests: Array<Extract<EmulatorEvent, { type: 'request' }>> = [];
  // A read waiting for an event, answered by the next one.
  let reading: (() => void) | undefined;
  const stop = () => {
    if (unsubscribe === undefined) return;
    unsubscribe();
    unsubscribe = undefined;
    counters.readers--;
    if (!summaries) counters.wholeReaders--;
  };
  const writeRequests = () => {
    if (requests.length === 0) return;
    const batch = requests.map((event) => requestSummary(event.request, secrets, event.from));
    requests = [];
    waiting.push(formatServerSentEvent({ type: 'requests', requests: batch }));
  };
  const hand = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    writeRequests();
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
          const summary = summaries && event.type === 'request';
          // Events stay in order: the requests before another event are written before it.
          if (summaries && !summary) writeRequests();
          const text = summary ? '' : fullText(event);
          const length = summary ? SUMMARY_CHARS : text.length;
          if (waitingLength + length > maxQueuedBytes) {
            stop();
            counters.dropped++;
            controller.error(new Error(READER_FELL_BEHIND));
            return;
          }
          if (summary) requests.push(event);
          else waiting.push(text);
          waitingLength += length;
          if (requests.length >= SUMMARIES_WAITING) {
            waitingLength -= SUMMARY_CHARS * requests.length;
            writeRequests();
            waitingLength += waiting[waiting.length - 1]!.length;
          }
          if (reading === undefined) return;
          const answered = reading;
          reading = undefined;
          hand(controller);
          answered();
        });
      },
      pull(controller) {
        if (waitingLength > 0) return hand(controller);
        return new Promise<void>((resolve) => (reading = resolve));
      },
      cancel: stop,
    },
    { highWaterMark: 0 },
  );
}
