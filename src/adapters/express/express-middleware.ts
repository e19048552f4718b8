import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'msw';
import { isDevApiPath } from '../../core/admin/dev-api.js';
import { createEmulator } from '../../emulator.js';
import { checkDevApiHost, type HostPolicy } from '../../transport/host-guard.js';
import {
  hasBody,
  readBody,
  requestTarget,
  type TransportRequest,
} from '../../transport/incoming.js';
import { pumpStream, writeResponse, type TransportResponse } from '../../transport/outgoing.js';
import { createFetchEngine } from '../msw/msw-engine.js';
import { emulatorHandlers, type HandlersOptions } from '../msw/msw-handlers.js';

/** Options of {@link createMiddleware}: those of `createHandlers`, handlers of your own, and who may reach the dev API by name. */
export interface MiddlewareOptions extends Omit<HandlersOptions, 'baseUrl'>, HostPolicy {
  /** Answers requests under this origin and prefix only; by default `/v1/*` and `/__uas/*` under the mount. */
  baseUrl?: string;
  /** msw handlers tried before the emulator's, to add or override endpoints. */
  handlers?: RequestHandler[];
}

/** A request as Express (4 or 5) hands it to middleware; `body` is set when a body parser ran first. */
export type MiddlewareRequest = IncomingMessage & { body?: unknown };

/**
 * Connect-style middleware (Express 4 and 5, or a bare `node:http` server) that answers like
 * `uas serve`, to mount in an existing app: `app.use('/uas', createMiddleware())`. Requests the
 * handlers do not match go to `next()`. Typed with `node:http` types only, so it needs no
 * Express types.
 */
export function createMiddleware(
  options: MiddlewareOptions = {},
): (req: MiddlewareRequest, res: ServerResponse, next: (error?: unknown) => void) => void {
  const emulator = options.emulator ?? createEmulator(options);
  const engine = createFetchEngine(emulator, [
    ...(options.handlers ?? []),
    ...emulatorHandlers(emulator, options.baseUrl),
  ]);
  return (req, res, next) => {
    const { url, host } = requestTarget(req);
    const path = url.split('?', 1)[0] ?? url;
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
    };
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    request.signal = controller.signal;
    const answer = () =>
      engine(request).then(
        (response) => (response === undefined ? next() : send(res, response)),
        next,
      );
    const parsed = parsedBody(req);
    if (parsed !== undefined) {
      request.body = parsed;
      request.bodyBytes = Buffer.byteLength(parsed);
      void answer();
    } else if (hasBody(req) && !req.readableEnded) {
      readBody(req, emulator.bodyLimit(path), (body, bytes) => {
        request.body = body;
        request.bodyBytes = bytes;
        void answer();
      });
    } else {
      void answer();
    }
  };
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
  else
    pumpStream(res, response as TransportResponse & { stream: ReadableStream<Uint8Array> }, 15_000);
}
