import type { IncomingMessage, ServerResponse } from 'node:http';
import { isDevApiPath } from '../../core/admin/dev-api.js';
import type { AnyEmulator } from '../../core/emulator.js';
import { createEmulator, type EmulatorOptions } from '../../emulator.js';
import { emulatorFailed, fromCore } from '../../transport/core-answer.js';
import { delayAnswer } from '../../transport/delay-answer.js';
import { checkDevApiHost, type HostPolicy } from '../../transport/host-guard.js';
import { writeResponse } from '../../transport/answer-writer.js';
import { hasBody, readRequestBody } from '../../transport/request-body.js';
import { localOrigin, requestTarget } from '../../transport/request-target.js';
import { pumpStream } from '../../transport/stream-pump.js';
import type { TransportRequest, TransportResponse } from '../../transport/transport-exchange.js';
import { giveWay } from '../../runtime/give-way.js';

/** Options of {@link createMiddleware}: the emulator (or those of `createEmulator`), and who may reach the dev API by name. */
export interface MiddlewareOptions extends EmulatorOptions, HostPolicy {
  /** An emulator to serve; by default one is made from the other options. */
  emulator?: AnyEmulator;
}

/** A request as Express (4 or 5) hands it to middleware; `body` is set when a body parser ran first. */
export type MiddlewareRequest = IncomingMessage & { body?: unknown };

/** What the middleware answers under its mount: the service (`/v1`) and the dev API (`/__uas`). */
const EMULATED_PATH = /^\/(?:v1|__uas)(?:\/|$)/i;

/**
 * Connect-style middleware (Express 4 and 5, or a bare `node:http` server) that answers like
 * `uas serve`, to mount in an existing app: `app.use('/uas', createMiddleware())`. It answers
 * `/v1/*` and `/__uas/*` under the mount and hands every other request to `next()`; add or
 * override endpoints with routes of your own before it. Typed with `node:http` types only and
 * calling the emulator directly, so it needs neither Express types nor msw.
 */
export function createMiddleware(
  options: MiddlewareOptions = {},
): (req: MiddlewareRequest, res: ServerResponse, next: (error?: unknown) => void) => void {
  const emulator = options.emulator ?? createEmulator(options);
  return (req, res, next) => {
    const { url, host } = requestTarget(req);
    const path = url.split('?', 1)[0] ?? url;
    if (!EMULATED_PATH.test(path)) {
      next();
      return;
    }
    if (isDevApiPath(path) && emulator.devApi.adminToken === undefined) {
      const refusal = checkDevApiHost(host, options, path);
      if (refusal !== undefined) {
        writeResponse(
          res,
          {
            status: refusal.status,
            headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store' },
            body: JSON.stringify(refusal),
          },
          false,
        );
        return;
      }
    }
    const request: TransportRequest = {
      method: req.method ?? 'GET',
      url,
      headers: req.headers,
      body: undefined,
      bodyBytes: 0,
      signal: undefined,
      localOrigin: isDevApiPath(path) ? localOrigin(req.socket) : undefined,
    };
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const answer = () => {
      void respond(emulator, request, controller.signal).then((response) => send(res, response));
    };
    const parsed = parsedBody(req);
    if (parsed !== undefined) {
      request.body = parsed;
      request.bodyBytes = Buffer.byteLength(parsed);
      answer();
    } else if (hasBody(req) && !req.readableEnded) {
      readRequestBody(req, emulator.bodyLimit(path), (body, bytes) => {
        request.body = body;
        request.bodyBytes = bytes;
        answer();
      });
    } else {
      answer();
    }
  };
}

/** The core's answer to a request, after its delay (cut short when the client goes, or by a reset). */
async function respond(
  emulator: AnyEmulator,
  request: TransportRequest,
  signal: AbortSignal,
): Promise<TransportResponse> {
  const response = await Promise.resolve(emulator.handle(request, giveWay)).catch(emulatorFailed);
  await delayAnswer(emulator, response.delayMs, signal);
  return fromCore(response);
}

/** The body a parser of the app already read (`express.json()`, `express.text()`), as text. */
function parsedBody(req: MiddlewareRequest): string | undefined {
  if (!req.readableEnded || req.body === undefined) return undefined;
  if (typeof req.body === 'string') return req.body;
  if (Buffer.isBuffer(req.body)) return req.body.toString('utf8');
  return JSON.stringify(req.body);
}

function send(res: ServerResponse, response: TransportResponse): void {
  if (response.stream === undefined) writeResponse(res, response, false);
  // An event stream for a client already gone is let go, or it would hold a reader's place.
  else if (res.destroyed) response.stream.cancel().catch(() => {});
  else
    pumpStream(res, response as TransportResponse & { stream: ReadableStream<Uint8Array> }, 15_000);
}
