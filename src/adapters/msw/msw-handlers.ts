import { http, HttpResponse, type RequestHandler } from 'msw';
import type { Emulator } from '../../core/emulator.js';
import type { EmulatorRequest, EmulatorResponse } from '../../core/service/exchange.js';
import { createEmulator, type EmulatorOptions } from '../../emulator.js';
import { waitFor } from '../../runtime/wait.js';

/** Options of {@link createHandlers}. */
export interface HandlersOptions extends EmulatorOptions {
  /** An emulator to serve; by default one is made from the other options. */
  emulator?: Emulator;
  /**
   * The origin (and optional path prefix) to answer for, such as `https://uas.test`. With it,
   * every request under it reaches the emulator (unknown paths get its 404). Without it, the
   * handlers answer `/v1/*` and `/__uas/*` on any origin.
   */
  baseUrl?: string;
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
export function createHandlers(options: HandlersOptions = {}): RequestHandler[] {
  const emulator = options.emulator ?? createEmulator(options);
  const resolver = async ({ request }: { request: Request }) => {
    const input = await fromFetchRequest(
      request,
      emulator.bodyLimit(new URL(request.url).pathname),
    );
    return toFetchResponse(emulator, emulator.handle(input), request.signal);
  };
  return [http.all(handledUrls(options.baseUrl), resolver)];
}

/**
 * The URLs the handlers answer, as a regular expression without capture groups: msw decodes
 * string paths (and captured groups) with decodeURIComponent, which throws on a malformed
 * escape such as `/%`; the emulator answers those itself.
 */
export function handledUrls(baseUrl: string | undefined): RegExp {
  if (baseUrl === undefined) return /^[a-z][a-z0-9+.-]*:\/\/[^/]+\/(?:v1|__uas)(?:\/|$)/i;
  const base = baseUrl.replace(/\/+$/, '');
  if (base === '') return /^/;
  return new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:/|$)`);
}

/** Translates a Fetch request into the core's request, reading at most `limit + 1` body bytes. */
export async function fromFetchRequest(request: Request, limit: number): Promise<EmulatorRequest> {
  const url = new URL(request.url);
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
  return { method: request.method, url: `${url.pathname}${url.search}`, headers, body, bodyBytes };
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
 * configured latency: on a manual clock, once the test moves it that far.
 */
export async function toFetchResponse(
  emulator: Emulator,
  response: EmulatorResponse,
  signal?: AbortSignal,
): Promise<Response> {
  if (response.delayMs > 0) await waitFor(emulator.clock, response.delayMs, signal);
  const payload =
    response.stream ??
    response.text ??
    (response.body === undefined ? null : JSON.stringify(response.body));
  return new HttpResponse(payload, { status: response.status, headers: response.headers });
}
