import { http, HttpResponse, type RequestHandler } from 'msw';
import type { AnyEmulator } from '../../core/emulator.js';
import type { MaybePromise } from '../../core/async/maybe-promise.js';
import type { EmulatorRequest, EmulatorResponse } from '../../core/service/exchange.js';
import { createEmulator, type EmulatorOptions } from '../../emulator.js';
import { checkBaseUrl } from '../../http/base-url.js';
import { refuseOptionsBesideEmulator } from '../emulator-choice.js';
import { delayAnswer } from '../../transport/delay-answer.js';
import { giveWay } from '../../runtime/give-way.js';

/** Options of {@link createHandlers}. */
export interface HandlersOptions extends EmulatorOptions {
  /** An emulator to serve; by default one is made from the other options. */
  emulator?: AnyEmulator;
  /**
   * The origin (and optional path prefix) the emulator answers for, such as `https://uas.test`
   * or `http://localhost:5173/uas`. Every request under it reaches the emulator (an unknown path
   * gets its 404); nothing else is touched, so your own API is never answered by uas. Required:
   * handlers without it would answer `/v1/*` of every origin.
   */
  baseUrl: string;
}

/**
 * Creates msw request handlers that answer like `uas serve`, for `setupServer` (Node),
 * `setupWorker` (browsers) and the msw engine of `uas serve`.
 *
 * ```ts
 * const emulator = createEmulator({ clock: createManualClock() });
 * const server = setupServer(...createHandlers({ emulator, baseUrl: 'https://uas.test' }));
 * ```
 */
export function createHandlers(options: HandlersOptions): RequestHandler[] {
  if (options?.baseUrl === undefined)
    throw new TypeError(
      'createHandlers needs baseUrl, the origin the emulator answers for (such as "https://uas.test"): without one its handlers would answer /v1/* of every origin, your own API included',
    );
  const baseUrl = checkBaseUrl(options.baseUrl, 'createHandlers: baseUrl');
  const { emulator, baseUrl: _, ...emulatorOptions } = options;
  if (emulator === undefined) return emulatorHandlers(createEmulator(options), baseUrl);
  refuseOptionsBesideEmulator('createHandlers', emulatorOptions);
  return emulatorHandlers(emulator, baseUrl);
}

/**
 * The handlers of an emulator at `baseUrl`, as {@link checkBaseUrl} returns it (its path prefix is
 * stripped before the emulator sees the path); with '', every path of any origin (the msw engine
 * of `uas serve`, whose requests are all its own).
 */
export function emulatorHandlers(emulator: AnyEmulator, baseUrl: string): RequestHandler[] {
  const prefix = baseUrl === '' ? '' : new URL(baseUrl).pathname.replace(/\/+$/, '');
  const resolver = async ({ request }: { request: Request }) => {
    const input = await fromFetchRequest(request, (path) => emulator.bodyLimit(path), prefix);
    return toFetchResponse(emulator, emulator.handle(input, giveWay), request.signal);
  };
  return [http.all(handledUrls(baseUrl), resolver)];
}

/**
 * The URLs the handlers answer, as a regular expression without capture groups: msw decodes
 * string paths (and captured groups) with decodeURIComponent, which throws on a malformed
 * escape such as `/%`; the emulator answers those itself.
 */
function handledUrls(baseUrl: string): RegExp {
  if (baseUrl === '') return /^/;
  return new RegExp(`^${baseUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:/|$)`);
}

/**
 * Translates a Fetch request into the core's request (its path without `prefix`), reading at most
 * the body limit of that path and one byte more.
 */
export async function fromFetchRequest(
  request: Request,
  limitOf: (path: string) => number,
  prefix = '',
): Promise<EmulatorRequest> {
  const url = new URL(request.url);
  const pathname = url.pathname.slice(prefix.length) || '/';
  const limit = limitOf(pathname);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  let body: string | undefined;
  let bodyBytes = 0;
  if (request.body !== null && request.method !== 'GET' && request.method !== 'HEAD') {
    const read = await readLimited(request.body, limit);
    body = read.text;
    bodyBytes = read.bytes;
  }
  return {
    method: request.method,
    url: `${pathname}${url.search}`,
    headers,
    body,
    bodyBytes,
    // Where the handlers answer: a document served to a request without Host names it.
    localOrigin: `${url.origin}${prefix}`,
  };
}

async function readLimited(
  stream: ReadableStream<Uint8Array>,
  limit: number,
): Promise<{ text: string; bytes: number }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > limit) {
      // Stop reading; the emulator answers 413 from the count. Not awaited: some sources (msw's
      // interceptors) settle a cancel only once the whole body has been consumed.
      reader.cancel().catch(() => {});
      break;
    }
    chunks.push(value);
  }
  const joined = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { text: new TextDecoder().decode(joined), bytes };
}

/**
 * Translates the core's answer into a Fetch response (a stream for the event endpoint), after the
 * configured latency: on a manual clock, once the test moves it that far, or at once when the
 * emulator is reset.
 */
export async function toFetchResponse(
  emulator: AnyEmulator,
  pending: MaybePromise<EmulatorResponse>,
  signal?: AbortSignal,
): Promise<Response> {
  const response = await pending;
  await delayAnswer(emulator, response.delayMs, signal);
  const payload =
    response.stream ??
    response.text ??
    (response.body === undefined ? null : JSON.stringify(response.body));
  return new HttpResponse(payload, { status: response.status, headers: response.headers });
}
