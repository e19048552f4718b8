import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AnyEmulator } from '../../core/emulator.js';
import type { MaybePromise } from '../../core/async/maybe-promise.js';
import type { EmulatorResponse } from '../../core/service/exchange.js';
import { createEmulator, type EmulatorOptions } from '../../emulator.js';
import { admitRequest } from '../../transport/admit-request.js';
import { refuseOptionsBesideEmulator } from '../emulator-choice.js';
import { writeResponse } from '../../transport/answer-writer.js';
import { emulatorFailed, fromCore } from '../../transport/core-answer.js';
import { delayAnswer } from '../../transport/delay-answer.js';
import type { HostPolicy } from '../../transport/host-guard.js';
import { readRequestBody } from '../../transport/request-body.js';
import { pathOf, requestTarget } from '../../transport/request-target.js';
import { pumpStream } from '../../transport/stream-pump.js';
import type { TransportResponse } from '../../transport/transport-exchange.js';
import { giveWay } from '../../runtime/give-way.js';

/** Options of {@link createMiddleware}: the emulator (or those of `createEmulator`), and who may reach the dev API by name. */
export interface MiddlewareOptions extends EmulatorOptions, HostPolicy {
  /** An emulator to serve; by default one is made from the other options. */
  emulator?: AnyEmulator;
}

/**
 * A request as Express (4 or 5) hands it to middleware; `body` is set when a body parser ran
 * first, `baseUrl` to the path the middleware is mounted under.
 */
export type MiddlewareRequest = IncomingMessage & { body?: unknown; baseUrl?: unknown };

/** A mount path Express reports (`/uas`, `/api/uas`): path segments, nothing a URL would reread. */
const MOUNT_PATH = /^(?:\/[\w.~%!$&'()*+,;=:@-]+)+$/;

/** What the middleware answers under its mount: the service (`/v1`) and the dev API (`/__uas`). */
const EMULATED_PATH = /^\/(?:v1|__uas)(?:\/|$)/i;

/**
 * Connect-style middleware (Express 4 and 5, or a bare `node:http` server) that answers like
 * `uas serve`, to mount in an existing app: `app.use('/uas', createMiddleware())`. It answers
 * `/v1/*` and `/__uas/*` under the mount and hands every other request to `next()`; add or
 * override endpoints with routes of your own before it. It admits requests as `uas serve` does
 * (the same refusals, with the same problem+json). Typed with `node:http` types only and calling
 * the emulator directly, so it needs neither Express types nor msw.
 */
export function createMiddleware(
  options: MiddlewareOptions = {},
): (req: MiddlewareRequest, res: ServerResponse, next: (error?: unknown) => void) => void {
  const { emulator: given, allowedHosts: _, ...emulatorOptions } = options;
  if (given !== undefined) refuseOptionsBesideEmulator('createMiddleware', emulatorOptions);
  const emulator = given ?? createEmulator(options);
  return (req, res, next) => {
    const target = requestTarget(req);
    if (!EMULATED_PATH.test(pathOf(target.url))) {
      next();
      return;
    }
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const answer = (pending: MaybePromise<EmulatorResponse>) => {
      void respond(emulator, pending, controller.signal).then((response) => send(res, response));
    };
    const admission = admitRequest(emulator, options, req, target);
    if (admission.answer !== undefined) {
      answer(admission.answer);
      req.resume();
      return;
    }
    const { request, bodyLimit } = admission;
    if (typeof req.baseUrl === 'string' && MOUNT_PATH.test(req.baseUrl))
      request.mountPath = req.baseUrl;
    const parsed = parsedBody(req);
    if (parsed !== undefined) {
      request.body = parsed;
      request.bodyBytes = Buffer.byteLength(parsed);
      // The parser undid any content coding (express.json() inflates gzip, deflate and br, and
      // refuses the others): the text it hands over is not compressed.
      const { 'content-encoding': _coding, ...decoded } = request.headers;
      request.headers = decoded;
      answer(emulator.handle(request, giveWay));
    } else if (bodyLimit !== undefined && !req.readableEnded) {
      readRequestBody(req, bodyLimit, (body, bytes) => {
        request.body = body;
        request.bodyBytes = bytes;
        answer(emulator.handle(request, giveWay));
      });
    } else {
      answer(emulator.handle(request, giveWay));
    }
  };
}

/** The core's answer, after its delay (cut short when the client goes, or by a reset). */
async function respond(
  emulator: AnyEmulator,
  pending: MaybePromise<EmulatorResponse>,
  signal: AbortSignal,
): Promise<TransportResponse> {
  const response = await Promise.resolve(pending).catch(emulatorFailed);
  await delayAnswer(emulator, response.delayMs, signal);
  return fromCore(response);
}

/**
 * The body a parser of the app already read (`express.json()`, `express.text()`), as text. One
 * announced empty is empty, whatever the parser made of it (`express.json()` makes it `{}`).
 */
function parsedBody(req: MiddlewareRequest): string | undefined {
  if (!req.readableEnded || req.body === undefined) return undefined;
  if (req.headers['content-length'] === '0') return '';
  if (typeof req.body === 'string') return req.body;
  if (Buffer.isBuffer(req.body)) return req.body.toString('utf8');
  return JSON.stringify(req.body);
}

function send(res: ServerResponse, response: TransportResponse): void {
  if (response.stream === undefined) writeResponse(res, response, response.close === true);
  // An event stream for a client already gone is let go, or it would hold a reader's place.
  else if (res.destroyed) response.stream.cancel().catch(() => {});
  else
    pumpStream(res, response as TransportResponse & { stream: ReadableStream<Uint8Array> }, 15_000);
}
