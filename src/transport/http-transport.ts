import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { isDevApiPath, refuseDevApi } from '../core/admin/dev-api.js';
import type { AnyEmulator } from '../core/emulator.js';
import { isPromise, type MaybePromise } from '../core/async/maybe-promise.js';
import type { EmulatorResponse } from '../core/service/exchange.js';
import { createProblem } from '../core/service/problems.js';
import { emulatorFailed, fromCore } from './core-answer.js';
import { delayAnswer } from './delay-answer.js';
import { checkDevApiHost, isValidHost, type HostPolicy } from './host-guard.js';
import {
  hasBody,
  localOrigin,
  readBody,
  requestTarget,
  type TransportRequest,
} from './incoming.js';
import { answerSocket, pumpStream, writeResponse, type TransportResponse } from './outgoing.js';
import { giveWay } from '../runtime/give-way.js';

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
  /**
   * Milliseconds a client has to take an answer larger than the socket's buffers before its
   * connection is closed.
   * @default 30_000
   */
  stalledAnswerMs?: number;
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

/** The answer to the last request read on a connection, kept on its socket (cheaper than a map). */
const LAST_ANSWER = Symbol('uas.lastAnswer');
/** Requests read behind one whose body is still arriving: they run after it, in order. */
const BEHIND = Symbol('uas.behind');
type ServedSocket = Socket & {
  [LAST_ANSWER]?: ServerResponse;
  [BEHIND]?: Array<() => void> | undefined;
};

/**
 * The socket layer both engines of `uas serve` share: timeouts, parser errors, the Host check of
 * the dev API, body limits, delayed answers, event streams with back-pressure, and shutdown.
 * Engines differ only in how a request reaches the core.
 */
export function createHttpTransport(
  emulator: AnyEmulator,
  options: HttpTransportOptions = {},
): HttpTransport {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const engine = options.engine;
  /**
   * Requests still sending their body: such a request is answered only once its body is read, so
   * a parse error in the body cannot wait for its answer.
   */
  const readingBody = new WeakSet<IncomingMessage>();
  /** The engine's last request on each connection: the next one runs once it is answered. */
  const engineTurns = new WeakMap<Socket, Promise<void>>();
  /** Connections answered outside of any request (a parse error, CONNECT): ended after it. */
  const answeredAlone = new WeakSet<Socket>();
  /**
   * Connections whose answer that closes them is already written or decided (a refusal, a body
   * over the limit, the last answer at shutdown): requests read after it on the same connection
   * are not run, since nobody will take their answers.
   */
  const closingAfter = new WeakSet<Socket>();
  /** Requests waiting on a delay or an engine: aborted at shutdown so they answer at once. */
  const waiting = new Set<AbortController>();
  const streams = new Set<() => void>();
  /** Connections with an event stream: one each. */
  const streaming = new WeakSet<Socket>();
  /** Connections with a request read but not run (behind a stream, or a closing answer). */
  const skipped = new WeakSet<Socket>();
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
    (req, res) => admit(req, res, serve),
  );

  /**
   * Takes a request read on a connection: it runs now, or, behind one whose body is still
   * arriving, after it, in order.
   */
  function admit(
    req: IncomingMessage,
    res: ServerResponse,
    run: (req: IncomingMessage, res: ServerResponse) => void,
  ): void {
    const socket = req.socket as ServedSocket;
    socket[LAST_ANSWER] = res;
    const behind = socket[BEHIND];
    if (behind === undefined) run(req, res);
    else behind.push(() => run(req, res));
  }

  /**
   * Whether a request read on a connection may run: not when nobody can take its answer, because
   * the connection was closed (too many answers queued), an answer before it closes it, or an
   * event stream before it never ends.
   */
  function runnable(socket: Socket): boolean {
    return !socket.destroyed && !closingAfter.has(socket) && !streaming.has(socket);
  }

  /**
   * Leaves a request unanswered, never run: when its turn comes (after an event stream ends,
   * say), the connection closes instead of waiting for an answer that will not come.
   */
  function skip(res: ServerResponse): void {
    skipped.add(res.req.socket);
    res.destroy();
  }

  /** Runs the requests that waited behind one whose body has now been read. */
  function release(socket: ServedSocket): void {
    const queue = socket[BEHIND];
    socket[BEHIND] = undefined;
    while (queue !== undefined && queue.length > 0) {
      (queue.shift() as () => void)();
      // That one reads a body in turn: the rest wait behind it.
      const next = socket[BEHIND] as Array<() => void> | undefined;
      if (next !== undefined) {
        next.push(...queue);
        return;
      }
    }
  }

  function serve(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket as ServedSocket;
    if (!runnable(socket)) {
      skip(res);
      return;
    }
    const { url, host } = requestTarget(req);
    const badHost = host !== undefined && !isValidHost(host);
    if (
      (host === undefined && req.httpVersionMinor >= 1) ||
      badHost ||
      hostLines(req.rawHeaders) > 1
    ) {
      const detail =
        host === undefined
          ? 'an HTTP/1.1 request needs a Host header'
          : badHost
            ? `the Host header is not a host and port: ${JSON.stringify(host.slice(0, 100))}`
            : 'a request has one Host header, not several';
      refuse(res, createProblem('malformed-http', detail), true);
      req.resume();
      return;
    }
    const path = pathOf(url);
    const withBody = hasBody(req);
    const headers = host === req.headers.host ? req.headers : { ...req.headers, host };
    const request: TransportRequest = {
      method: req.method ?? 'GET',
      url,
      headers,
      body: undefined,
      bodyBytes: 0,
      signal: undefined,
    };
    if (isDevApiPath(path)) {
      // Only the dev API names the server (GET /__uas/openapi.json): no address is read otherwise.
      request.localOrigin = localOrigin(req.socket);
      const refusal =
        emulator.devApi.adminToken === undefined ? checkDevApiHost(host, options, path) : undefined;
      if (refusal !== undefined) {
        refuse(res, refusal, withBody);
        req.resume();
        return;
      }
      // A body nobody may send (no admin token, another origin) is refused unread.
      const denied = withBody ? refuseDevApi(emulator, request, path) : undefined;
      if (denied !== undefined) {
        answerFromCore({ ...denied, close: true }, res);
        req.resume();
        return;
      }
    }
    if (!withBody) {
      dispatch(request, res);
      return;
    }
    const limit = emulator.bodyLimit(path);
    const announced = Number(req.headers['content-length']);
    if (announced > limit) {
      // Refused at once, not after waiting for a body that may never come.
      request.bodyBytes = announced;
      answerFromCore(emulator.handle(request, giveWay), res);
      req.resume();
      return;
    }
    readingBody.add(req);
    socket[BEHIND] = [];
    readBody(req, limit, (body, bytes) => {
      readingBody.delete(req);
      request.body = body;
      request.bodyBytes = bytes;
      dispatch(request, res);
      release(socket);
    });
  }

  /** Sends a request to its engine, or to the core for what Fetch cannot carry. */
  function dispatch(request: TransportRequest, res: ServerResponse): void {
    const bytes = request.bodyBytes ?? 0;
    const tooLarge = bytes > 0 && bytes > emulator.bodyLimit(pathOf(request.url));
    // Targets other than a path (`*`, `ftp://host/x`) go to the core too: Fetch would rewrite
    // them, and both engines must answer alike.
    if (
      engine === undefined ||
      tooLarge ||
      !FETCH_METHOD.test(request.method) ||
      request.url.charCodeAt(0) !== 47 /* "/" */
    ) {
      answerFromCore(emulator.handle(request, giveWay), res);
      return;
    }
    const controller = track(res);
    request.signal = controller.signal;
    const socket = res.req.socket;
    const run = (): Promise<void> => {
      // Its connection was closed while the requests before it ran, or one of them began an
      // event stream: nobody takes its answer.
      if (socket.destroyed || streaming.has(socket)) {
        waiting.delete(controller);
        skip(res);
        return Promise.resolve();
      }
      return engine(request)
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
    };
    // A connection's requests run one after another, as the default engine runs them: a client
    // that pipelines many cannot have them all under way at once (and all their answers built,
    // after its connection was closed for queuing too many).
    const before = engineTurns.get(socket);
    engineTurns.set(socket, before === undefined ? run() : before.then(run));
  }

  /** Answers with the core's response, after its delay when it has one. */
  function answerFromCore(pending: MaybePromise<EmulatorResponse>, res: ServerResponse): void {
    if (isPromise(pending)) {
      // A shared store answers later: the connection counts as busy until it has.
      const controller = track(res);
      pending.catch(emulatorFailed).then((response) => {
        waiting.delete(controller);
        answerFromCore(response, res);
      });
      return;
    }
    const response = pending;
    // Decided now, whatever the delay: requests read after it are not run.
    if (response.close === true) closingAfter.add(res.req.socket);
    const answer = fromCore(response);
    if (response.delayMs <= 0) {
      send(answer, res);
      return;
    }
    const controller = track(res);
    void delayAnswer(emulator, response.delayMs, controller.signal).then(() => {
      waiting.delete(controller);
      send(answer, res);
    });
  }

  function send(response: TransportResponse, res: ServerResponse): void {
    if (response.stream === undefined) {
      writeResponse(res, response, closes(res, response.close), options.stalledAnswerMs);
      return;
    }
    if (closing || res.destroyed) {
      response.stream.cancel().catch(() => {});
      if (!res.destroyed)
        writeResponse(res, { ...response, stream: undefined, body: '' }, closes(res, true));
      return;
    }
    const socket = res.req.socket;
    if (streaming.has(socket)) {
      // A stream never ends by itself, so a second one pipelined behind it would never go out,
      // yet hold a reader's place: one stream per connection.
      response.stream.cancel().catch(() => {});
      refuse(
        res,
        createProblem(
          'too-many-event-readers',
          'this connection is reading events already; open another connection for another stream',
        ),
        false,
      );
      return;
    }
    streaming.add(socket);
    res.on('close', () => {
      streaming.delete(socket);
      // Requests read behind it were not run: nothing more will be answered on it.
      if (skipped.has(socket)) socket.destroySoon();
    });
    const end = pumpStream(
      res,
      response as TransportResponse & { stream: ReadableStream<Uint8Array> },
      heartbeatMs,
    );
    streams.add(end);
    res.on('close', () => streams.delete(end));
  }

  /**
   * Answers a connection after the answers it still owes, in order: those of the requests read
   * whole before it. Node keeps them on the socket, the one being written as `_httpMessage` and
   * the rest queued behind it, each taking its place when the one before is written; so the wait
   * follows `_httpMessage` until it is empty, or is a request still sending its body (the one this
   * answer is about). Asked only when a parse error or CONNECT comes, so it costs requests nothing.
   * Once per connection: the parser reports its error again when the client closes its side.
   */
  function afterAnswers(socket: Socket, answer: () => void): void {
    if (socket.destroyed || answeredAlone.has(socket)) return;
    answeredAlone.add(socket);
    const owed = () => {
      const current = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
      // A request still sending its body is the one the error is about; one whose body has
      // come whole (its end not yet emitted) is owed its answer.
      return current == null || (readingBody.has(current.req) && !current.req.complete)
        ? undefined
        : current;
    };
    if (owed() === undefined) {
      answer();
      return;
    }
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      answer();
    };
    // A client that has closed its side has its connection ended as soon as its last answer is
    // out (Node's destroySoon, called before that answer's close): this answer goes out first.
    const destroySoon = socket.destroySoon;
    socket.destroySoon = () => {
      socket.destroySoon = destroySoon;
      if (done) destroySoon.call(socket);
      else once();
    };
    const wait = () => {
      if (done || socket.destroyed) return;
      const current = owed();
      if (current === undefined) once();
      else current.once('close', wait);
    };
    wait();
  }

  /**
   * Whether an answer closes its connection: when asked (`close`), and at shutdown when it answers
   * the last request read on the connection, so that pipelined requests waiting on a latency all
   * get theirs first. A connection to be closed runs no request read after.
   */
  function closes(res: ServerResponse, close: boolean | undefined): boolean {
    const socket = res.req.socket as ServedSocket;
    const last = socket[LAST_ANSWER];
    if (close === true || (closing && last === res)) {
      closingAfter.add(socket);
      return true;
    }
    // At shutdown, the answer to the last request was given before (kept alive, or an event
    // stream just ended): the connection ends once that answer is out.
    if (closing && last !== undefined && last.writableEnded && !closingAfter.has(socket)) {
      closingAfter.add(socket);
      last.once('finish', () => socket.destroySoon());
    }
    return false;
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
    const closesAfter = closes(res, close);
    writeResponse(
      res,
      {
        status: problem.status,
        headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store' },
        body: JSON.stringify(problem),
      },
      closesAfter,
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
    // Pipelined requests before the bad one are answered first, in order.
    afterAnswers(socket, () => answerSocket(socket, createProblem(kind, detail)));
  });

  // Expect: 100-continue is answered only for a body that may be sent; any other expectation is
  // refused with problem+json (Node's own answer has no body).
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const { url } = requestTarget(req);
    if (Number(req.headers['content-length']) <= emulator.bodyLimit(pathOf(url)))
      res.writeContinue();
    server.emit('request', req, res);
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) =>
    admit(req, res, () => {
      if (!runnable(req.socket)) {
        skip(res);
        return;
      }
      refuse(
        res,
        createProblem(
          'expectation-failed',
          `the server meets no expectation but 100-continue; got Expect: ${JSON.stringify(String(req.headers.expect).slice(0, 100))}`,
        ),
        true,
      );
      req.resume();
    }),
  );

  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    afterAnswers(socket, () =>
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

  return {
    server,
    close(graceMs) {
      return new Promise((resolve) => {
        closing = true;
        for (const controller of waiting) controller.abort();
        for (const end of streams) end();
        // Not unref'd: a connection whose socket Node no longer counts as keeping the process
        // alive (a paused one) must still be closed, and the promise settled.
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
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

/** How many Host header lines a request has (Node keeps only the first). */
function hostLines(raw: string[]): number {
  let count = 0;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') count++;
  }
  return count;
}

function pathOf(url: string): string {
  const mark = url.indexOf('?');
  return mark === -1 ? url : url.slice(0, mark);
}
