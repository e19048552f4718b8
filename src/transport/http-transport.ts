import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { isDevApiPath } from '../core/admin/dev-api.js';
import type { Emulator } from '../core/emulator.js';
import type { EmulatorResponse } from '../core/service/exchange.js';
import { createProblem } from '../core/service/problems.js';
import { waitFor } from '../runtime/wait.js';
import { checkDevApiHost, type HostPolicy } from './host-guard.js';
import { hasBody, readBody, requestTarget, type TransportRequest } from './incoming.js';
import { answerSocket, pumpStream, writeResponse, type TransportResponse } from './outgoing.js';

/**
 * How a request reaches the core: the msw engine turns it into a Fetch request for msw's
 * handlers. Without one, the transport calls the core directly (the default, fast engine).
 * Resolves with undefined when no handler answered.
 */
export type Engine = (request: TransportRequest) => Promise<TransportResponse | undefined>;

/** Options of {@link createHttpTransport}. */
export interface HttpTransportOptions extends HostPolicy {
  /** The engine; by default the core, called directly. */
  engine?: Engine | undefined;
  /**
   * Milliseconds a client has to send a whole request; a stalled client is cut off after it.
   * @default 30_000
   */
  requestTimeoutMs?: number;
  /**
   * Milliseconds a client has to send its headers, an idle new connection included.
   * @default 10_000
   */
  headersTimeoutMs?: number;
  /**
   * Largest header block in bytes.
   * @default 16_384
   */
  maxHeaderBytes?: number;
  /**
   * Milliseconds between checks for requests past their timeouts.
   * @default 1_000
   */
  connectionsCheckingIntervalMs?: number;
  /**
   * Milliseconds between heartbeat comments on event streams.
   * @default 15_000
   */
  heartbeatMs?: number;
}

/** A server over the transport. */
export interface HttpTransport {
  readonly server: Server;
  /**
   * Stops accepting connections; answers waiting on a delay are sent at once, event streams end,
   * in-flight requests finish; connections still open after `graceMs` are closed.
   */
  close(graceMs: number): Promise<void>;
}

const TIMEOUT_CODES = new Set(['ERR_HTTP_REQUEST_TIMEOUT', 'ERR_HTTP_HEADERS_TIMEOUT']);

/**
 * The socket layer both engines of `uas serve` share: timeouts, parser errors, the Host check of
 * the dev API, body limits, delayed answers, event streams with back-pressure, and shutdown.
 * Engines differ only in how a request reaches the core.
 */
export function createHttpTransport(
  emulator: Emulator,
  options: HttpTransportOptions = {},
): HttpTransport {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const engine = options.engine;
  /** Requests waiting on a delay or an engine: aborted at shutdown so they answer at once. */
  const waiting = new Set<AbortController>();
  const streams = new Set<() => void>();
  let closing = false;

  const server = createServer(
    {
      requestTimeout: options.requestTimeoutMs ?? 30_000,
      headersTimeout: options.headersTimeoutMs ?? 10_000,
      maxHeaderSize: options.maxHeaderBytes ?? 16_384,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: options.connectionsCheckingIntervalMs ?? 1_000,
      // Checked below, to answer problem+json rather than Node's empty 400.
      requireHostHeader: false,
    },
    (req, res) => {
      const { url, host } = requestTarget(req);
      if (host === undefined && req.httpVersionMinor >= 1) {
        refuse(
          res,
          createProblem('malformed-http', 'an HTTP/1.1 request needs a Host header'),
          true,
        );
        req.resume();
        return;
      }
      const path = pathOf(url);
      if (isDevApiPath(path) && emulator.devApi.adminToken === undefined) {
        const refusal = checkDevApiHost(host, options, path);
        if (refusal !== undefined) {
          refuse(res, refusal, hasBody(req));
          req.resume();
          return;
        }
      }
      const headers = host === req.headers.host ? req.headers : { ...req.headers, host };
      const request: TransportRequest = {
        method: req.method ?? 'GET',
        url,
        headers,
        body: undefined,
        bodyBytes: 0,
        signal: undefined,
      };
      if (!hasBody(req)) {
        dispatch(request, res);
        return;
      }
      const limit = emulator.bodyLimit(path);
      readBody(req, limit, (body, bytes) => {
        request.body = body;
        request.bodyBytes = bytes;
        dispatch(request, res);
      });
    },
  );

  /** Sends a request to its engine, or to the core for what Fetch cannot carry. */
  function dispatch(request: TransportRequest, res: ServerResponse): void {
    const bytes = request.bodyBytes ?? 0;
    const tooLarge = bytes > 0 && bytes > emulator.bodyLimit(pathOf(request.url));
    if (engine === undefined || tooLarge || !FETCH_METHOD.test(request.method)) {
      answerFromCore(emulator.handle(request), res);
      return;
    }
    const controller = track(res);
    request.signal = controller.signal;
    engine(request)
      .then(
        (response) =>
          response ??
          ({
            status: 404,
            headers: { 'content-type': 'application/problem+json' },
            body: JSON.stringify(
              createProblem('not-found', `no handler answers ${pathOf(request.url)}`),
            ),
          } satisfies TransportResponse),
      )
      .catch((error: unknown): TransportResponse => ({
        status: 500,
        headers: { 'content-type': 'application/problem+json' },
        body: JSON.stringify(
          createProblem('internal-error', `a handler failed: ${(error as Error).message}`),
        ),
      }))
      .then((response) => {
        waiting.delete(controller);
        send(response, res);
      });
  }

  /** Answers with the core's response, after its delay when it has one. */
  function answerFromCore(response: EmulatorResponse, res: ServerResponse): void {
    const answer: TransportResponse = {
      status: response.status,
      headers: response.headers,
      body: response.text ?? (response.body === undefined ? '' : JSON.stringify(response.body)),
      stream: response.stream,
      close: response.close,
    };
    if (response.delayMs <= 0) {
      send(answer, res);
      return;
    }
    const controller = track(res);
    void waitFor(emulator.clock, response.delayMs, controller.signal).then(() => {
      waiting.delete(controller);
      send(answer, res);
    });
  }

  function send(response: TransportResponse, res: ServerResponse): void {
    if (response.stream === undefined) {
      writeResponse(res, response, closing);
      return;
    }
    if (closing || res.destroyed) {
      response.stream.cancel().catch(() => {});
      if (!res.destroyed) writeResponse(res, { ...response, stream: undefined, body: '' }, true);
      return;
    }
    const end = pumpStream(
      res,
      response as TransportResponse & { stream: ReadableStream<Uint8Array> },
      heartbeatMs,
    );
    streams.add(end);
    res.on('close', () => streams.delete(end));
  }

  /** An abort controller for a request that waits, aborted when its client goes or at shutdown. */
  function track(res: ServerResponse): AbortController {
    const controller = new AbortController();
    if (closing) controller.abort();
    waiting.add(controller);
    res.on('close', () => {
      if (!res.writableEnded) controller.abort();
      waiting.delete(controller);
    });
    return controller;
  }

  function refuse(res: ServerResponse, problem: ReturnType<typeof createProblem>, close: boolean) {
    writeResponse(
      res,
      {
        status: problem.status,
        headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store' },
        body: JSON.stringify(problem),
        close,
      },
      closing,
    );
  }

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const code = error.code ?? '';
    const [kind, detail] =
      code === 'HPE_HEADER_OVERFLOW'
        ? ([
            'header-fields-too-large',
            `the header block is over ${options.maxHeaderBytes ?? 16_384} bytes`,
          ] as const)
        : TIMEOUT_CODES.has(code)
          ? (['request-timeout', 'the request was not sent in time'] as const)
          : ([
              'malformed-http',
              `the request could not be read: ${code || error.message}`,
            ] as const);
    answerSocket(socket, createProblem(kind, detail));
  });

  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    answerSocket(
      socket,
      createProblem('method-not-allowed', 'CONNECT is for proxies; uas is not one'),
      { allow: 'GET, POST, PATCH, DELETE' },
    );
  });

  return {
    server,
    close(graceMs) {
      return new Promise((resolve) => {
        closing = true;
        for (const controller of waiting) controller.abort();
        for (const end of streams) end();
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      });
    },
  };
}

/** Methods the Fetch API can carry; others (TRACE, TRACK, CONNECT) go to the core directly. */
const FETCH_METHOD = /^(?!(?:TRACE|TRACK|CONNECT)$)[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function pathOf(url: string): string {
  const mark = url.indexOf('?');
  return mark === -1 ? url : url.slice(0, mark);
}
