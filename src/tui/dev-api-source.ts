import { createParser } from 'eventsource-parser';
import type { CodeRecord, EmulatorEvent, RequestRecord } from '../core/records/records.js';
import type { Clock } from '../core/time/clock.js';
import { describeNetworkError } from '../http/network-error.js';
import { createDevClient, type DevClient } from '../dev-client/dev-client.js';
import { DevApiError, isDevApiError } from '../dev-client/dev-api-error.js';
import { systemClock } from '../runtime/system-clock.js';
import { adminTokenProblem } from '../text/admin-token-problem.js';
import { readEvent } from '../core/records/read-event.js';
import { readRetryAfter } from '../client/retry-after.js';
import { createRequestFeed } from './request-feed.js';
import type { FeedEvent, TuiSource } from './tui-source.js';

/** Options of {@link createDevApiSource}. */
export interface DevApiSourceOptions {
  /** Base URL of the emulator, such as `http://127.0.0.1:4010`. */
  url: string;
  adminToken?: string | undefined;
  /**
   * Milliseconds between reconnection attempts after the stream drops.
   * @default 1000
   */
  retryMs?: number | undefined;
  /**
   * The clock the screen keeps time by.
   * @default the wall clock
   */
  clock?: Clock | undefined;
}

/** The most requests `GET /__uas/requests` returns at once: a full page asks for the next. */
const REQUESTS_PAGE = 100_000;

/**
 * A source over a running emulator's dev API: the event stream `/__uas/events` (server-sent
 * events, parsed with eventsource-parser) for requests as they happen, and the dev client for
 * everything else (the journal to catch up, buckets, resets, health). Reconnects by itself.
 */
export function createDevApiSource(options: DevApiSourceOptions): TuiSource {
  const dev = createDevClient(options.url, { adminToken: options.adminToken });
  const base = dev.url;
  const tokenSent = options.adminToken !== undefined;
  const headers: Record<string, string> = tokenSent
    ? { authorization: `Bearer ${options.adminToken}` }
    : {};
  return {
    label: base,
    clock: options.clock ?? systemClock,
    follow: (listener) =>
      followEvents(dev, { base, headers, tokenSent, retryMs: options.retryMs ?? 1000 }, listener),
    listBuckets: async (query) => {
      const page = await inCliWords(
        dev.buckets({
          sort: query.sort,
          search: query.search === '' ? undefined : query.search,
          limit: query.limit,
        }),
        tokenSent,
      );
      return { total: page.total, buckets: page.buckets };
    },
    reset: (key) => inCliWords(dev.resetBuckets(key), tokenSent),
    recent: (limit) => dev.journal(limit),
    async uptime() {
      try {
        return (await dev.health()).uptime_ms;
      } catch {
        return undefined;
      }
    },
  };
}

/** Where the event stream is, and how often to try it again once it dropped. */
interface EventStreamTarget {
  base: string;
  headers: Record<string, string>;
  tokenSent: boolean;
  retryMs: number;
}

/**
 * Follows the event stream: tells `listener` of the connection, of every request (catching up
 * from the journal after each connect), and of its loss, and reconnects after `retryMs`.
 * Returns the function that stops it.
 */
function followEvents(
  dev: DevClient,
  target: EventStreamTarget,
  listener: (event: FeedEvent) => void,
): () => void {
  let stopped = false;
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | undefined;
  // A read still in flight when the screen stops must not reach it.
  const tell = (event: FeedEvent) => {
    if (!stopped) listener(event);
  };
  const feed = createRequestFeed(
    {
      journal: (limit) => dev.journal(limit),
      after: (afterId) => allAfter(dev, afterId),
      latestCode: async () => newest(await dev.codes()),
    },
    tell,
  );
  const connect = async () => {
    while (!stopped) {
      controller = new AbortController();
      let waitMs = target.retryMs;
      try {
        const opened = await openEventStream(target, controller.signal);
        if ('refused' in opened) {
          waitMs = Math.max(waitMs, Math.min(opened.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
          throw opened.refused;
        }
        const { body } = opened;
        tell({ type: 'connected' });
        const reading = readEvents(body, (event) => feed.event(event));
        // Read to the end below; a failure while catching up must not go unhandled meanwhile.
        reading.catch(() => {});
        await feed.catchUp();
        await reading;
        tell({ type: 'lost', problem: 'the emulator closed the event stream' });
      } catch (error) {
        controller.abort();
        tell(lostEvent(error, target.tokenSent, waitMs));
      } finally {
        feed.close();
      }
      if (!stopped)
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, waitMs);
        });
    }
  };
  void connect();
  return () => {
    stopped = true;
    controller?.abort();
    clearTimeout(timer);
    wake?.();
  };
}

/**
 * A dev-API call whose refusal for the admin token is said in the CLI's words (the flag and the
 * environment variable, not the library's option), after the call it refused: still a
 * {@link DevApiError}, which `uas top --once` tells by its failure.
 */
async function inCliWords<T>(call: Promise<T>, tokenSent: boolean): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (isDevApiError(error) && error.failure === 'admin-token')
      throw new DevApiError(
        error.call,
        error.failure,
        error.status,
        error.problem,
        error.detail,
        adminTokenProblem(tokenSent),
      );
    throw error;
  }
}

/**
 * The connection lost, in the screen's words: a missing admin token said as such, and a server
 * whose event readers are all taken with what to do and when the next try comes.
 */
function lostEvent(error: unknown, tokenSent: boolean, waitMs: number): FeedEvent {
  if (!isDevApiError(error)) return { type: 'lost', problem: describeNetworkError(error) };
  if (error.failure === 'admin-token')
    return { type: 'lost', problem: adminTokenProblem(tokenSent), needsAdminToken: true };
  if (error.status === 503 && error.problem?.type.endsWith(':too-many-event-readers') === true)
    return {
      type: 'lost',
      problem: `all event readers taken: close a dashboard tab or a uas top; next try in ${Math.ceil(waitMs / 1000)} s`,
      readersFull: true,
    };
  return { type: 'lost', problem: error.message };
}

/**
 * The longest a refused event stream's `Retry-After` holds the next try back: a server saying
 * "in a day" is asked again in a minute, since the screen has nothing else to show meanwhile.
 */
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * The code issued last of `codes` (their dates are ISO 8601 in UTC: as texts, in order); of
 * codes issued in the same millisecond, the one listed last.
 */
function newest(codes: readonly CodeRecord[]): CodeRecord | undefined {
  let latest: CodeRecord | undefined;
  for (const code of codes)
    if (latest === undefined || code.issued_at >= latest.issued_at) latest = code;
  return latest;
}

/** Every request after `afterId` the journal holds, a page at a time. */
async function allAfter(dev: DevClient, afterId: number): Promise<RequestRecord[]> {
  const all: RequestRecord[] = [];
  let from = afterId;
  for (;;) {
    const page = await dev.requests({ afterId: from });
    for (const record of page) all.push(record);
    const last = page[page.length - 1];
    if (page.length < REQUESTS_PAGE || last === undefined) return all;
    from = last.id;
  }
}

/**
 * Opens `GET /__uas/events`. Resolves once the server answers: from then on, every request it
 * records is on the stream. A refusal is a {@link DevApiError} (an admin token missing, ...),
 * with the wait its `Retry-After` asked for.
 */
async function openEventStream(
  { base, headers, tokenSent }: EventStreamTarget,
  signal: AbortSignal,
): Promise<
  { body: ReadableStream<Uint8Array> } | { refused: DevApiError; retryAfterMs: number | undefined }
> {
  const answer = await fetch(`${base}/__uas/events`, { headers, signal, redirect: 'manual' });
  if (answer.ok && answer.body !== null) return { body: answer.body };
  const retryAfterMs = readRetryAfter(answer.headers.get('retry-after'), Date.now());
  return {
    refused: await DevApiError.refused('GET /__uas/events', answer, tokenSent),
    retryAfterMs,
  };
}

/** Reads server-sent events to the end of the stream; a malformed event is skipped. */
async function readEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: EmulatorEvent) => void,
): Promise<void> {
  const parser = createParser({
    onEvent: (message) => {
      let value: unknown;
      try {
        value = JSON.parse(message.data);
      } catch {
        return;
      }
      // Whatever the server sends: an event the screen could not show is skipped.
      const event = readEvent(value);
      if (event !== undefined) onEvent(event);
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>)
    parser.feed(decoder.decode(chunk, { stream: true }));
}
