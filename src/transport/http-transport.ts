import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AnyEmulator } from '../core/emulator.js';
import { createProblem } from '../core/service/problems.js';
import { expectationProblem, mayContinue } from './admit-request.js';
import { afterAnswers } from './after-answers.js';
import { clientErrorProblem } from './client-error.js';
import { connectionOf } from './connection-state.js';
import { problemAnswer } from './core-answer.js';
import type { HostPolicy } from './host-guard.js';
import type { StaticSite } from './static-site.js';
import { takeRequest, type RunRequest } from './request-order.js';
import { serveRequest } from './serve-request.js';
import { answerSocket } from './socket-answer.js';
import type { TransportContext } from './transport-context.js';
import type { Engine } from './transport-exchange.js';
import { TransportShutdown } from './transport-shutdown.js';

export type { Engine } from './transport-exchange.js';

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
  /**
   * Milliseconds a client has to take an answer larger than the socket's buffers before its
   * connection is closed.
   * @default 30_000
   */
  stalledAnswerMs?: number;
  /** Static files served under `/__uas/ui/` (the dashboard) while the dev API is on. */
  site?: StaticSite | undefined;
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

/**
 * The socket layer both engines of `uas serve` share: timeouts, parser errors, admission (the
 * Host check of the dev API, body limits), delayed answers, event streams with back-pressure, and
 * shutdown. Engines differ only in how a request reaches the core. Each connection's state is one
 * {@link ConnectionState}, made when it opens.
 */
export function createHttpTransport(
  emulator: AnyEmulator,
  options: HttpTransportOptions = {},
): HttpTransport {
  const maxHeaderBytes = options.maxHeaderBytes ?? 16_384;
  const context: TransportContext = {
    emulator,
    engine: options.engine,
    policy: options,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    stalledAnswerMs: options.stalledAnswerMs,
    shutdown: new TransportShutdown(),
    site: options.site,
  };
  const serve: RunRequest = (connection, req, res) => serveRequest(context, connection, req, res);
  const server = createServer(
    {
      requestTimeout: options.requestTimeoutMs ?? 30_000,
      headersTimeout: options.headersTimeoutMs ?? 10_000,
      maxHeaderSize: maxHeaderBytes,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: options.connectionsCheckingIntervalMs ?? 1_000,
      // Checked by admission, to answer problem+json rather than Node's empty 400.
      requireHostHeader: false,
    },
    (req, res) => takeRequest(connectionOf(req.socket), req, res, serve),
  );
  server.on('connection', (socket: Socket) => connectionOf(socket));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) =>
    // Pipelined requests before the bad one are answered first, in order.
    afterAnswers(connectionOf(socket), () =>
      answerSocket(socket, clientErrorProblem(error, maxHeaderBytes)),
    ),
  );
  // Expect: 100-continue is answered only for a body that may be sent; any other expectation is
  // refused with problem+json (Node's own answer has no body).
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (mayContinue(emulator, req)) res.writeContinue();
    server.emit('request', req, res);
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) =>
    takeRequest(connectionOf(req.socket), req, res, (connection) =>
      serveRequest(context, connection, req, res, problemAnswer(expectationProblem(req), true)),
    ),
  );
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    // Node hands the socket over without its error listener: a client gone while the answers
    // before its CONNECT wait (a latency) would end the process with ECONNRESET or EPIPE.
    keepSocketErrors(socket);
    afterAnswers(connectionOf(socket), () =>
      answerSocket(
        socket,
        createProblem('method-not-allowed', 'CONNECT is for proxies; uas is not one'),
        { allow: 'GET, POST, PATCH, DELETE' },
      ),
    );
  });
  // A client that sends its request and then closes its side still gets the answer: Node's own
  // property, documented nowhere but stable since Node 0.x, that makes the server finish the
  // answers in flight before it ends the connection.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  return { server, close: (graceMs) => context.shutdown.close(server, graceMs) };
}

/** An error on a socket the server no longer listens to ends that socket, never the process. */
function keepSocketErrors(socket: Socket): void {
  socket.on('error', () => socket.destroy());
}
