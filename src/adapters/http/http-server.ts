import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Emulator } from '../../core/emulator.js';
import type { EmulatorRequest, EmulatorResponse } from '../../core/service/exchange.js';
import { createProblem } from '../../core/service/problems.js';
import {
  formatServerSentEvent,
  SSE_HEARTBEAT,
  SSE_PREAMBLE,
} from '../../core/admin/server-sent-events.js';

/** Options of {@link createHttpServer}. */
export interface HttpServerOptions {
  /**
   * Milliseconds a client has to send a whole request; a stalled client is cut off after it.
   * @default 30_000
   */
  requestTimeoutMs?: number;
  /**
   * Milliseconds a client has to send its headers.
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

/** What the transport keeps per server: open event streams, and whether it is shutting down. */
interface ServerState {
  streams: Set<ServerResponse>;
  closing: boolean;
}

const serverStates = new WeakMap<Server, ServerState>();

/** A running HTTP server over an emulator. */
export interface EmulatorHttpServer {
  readonly server: Server;
  /** The base URL it listens on, such as `http://127.0.0.1:4010`. */
  readonly url: string;
  /** Stops accepting, lets in-flight requests finish, ends event streams; force-closes after `graceMs`. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Creates a `node:http` server that hands every request to the emulator: the default engine of
 * `uas serve`. It only translates; the emulator decides every answer.
 */
export function createHttpServer(emulator: Emulator, options: HttpServerOptions = {}): Server {
  const state: ServerState = { streams: new Set(), closing: false };
  const server = createServer(
    {
      requestTimeout: options.requestTimeoutMs ?? 30_000,
      headersTimeout: options.headersTimeoutMs ?? 10_000,
      maxHeaderSize: options.maxHeaderBytes ?? 16_384,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: options.connectionsCheckingIntervalMs ?? 1_000,
    },
    (req, res) => {
      const hasBody =
        req.headers['content-length'] !== undefined ||
        req.headers['transfer-encoding'] !== undefined;
      if (!hasBody) {
        respond(emulator, toRequest(req, undefined, 0), res, state, options.heartbeatMs);
        return;
      }
      readBody(req, emulator.config.maxBodyBytes, (body, bytes, overflow) => {
        if (overflow) res.setHeader('connection', 'close');
        respond(emulator, toRequest(req, body, bytes), res, state, options.heartbeatMs);
      });
    },
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const status =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? 431
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 408
          : 400;
    const body = JSON.stringify(
      createProblem(
        'invalid-request',
        `the request could not be read: ${error.code ?? error.message}`,
        {
          status,
          title:
            status === 431
              ? 'Request header fields too large'
              : status === 408
                ? 'Request timeout'
                : 'Bad request',
        },
      ),
    );
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  server.on('close', () => {
    for (const stream of state.streams) stream.end();
  });
  serverStates.set(server, state);
  return server;
}

/** Starts an HTTP server for the emulator on `host:port` (port 0 picks a free port). */
export async function listen(
  emulator: Emulator,
  port: number,
  host: string,
  options: HttpServerOptions = {},
): Promise<EmulatorHttpServer> {
  const server = createHttpServer(emulator, options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return wrapServer(server, host);
}

/** Wraps a listening server with its URL and a graceful close. */
export function wrapServer(server: Server, host: string): EmulatorHttpServer {
  const address = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    server,
    url: `http://${shownHost}:${address.port}`,
    close: (graceMs = 3_000) => closeGracefully(server, graceMs),
  };
}

/** Stops accepting connections, ends event streams, and waits for in-flight requests, at most `graceMs`. */
export function closeGracefully(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const state = serverStates.get(server);
    if (state !== undefined) {
      // Answers sent from now on close their connection, so keep-alive clients let go.
      state.closing = true;
      for (const stream of state.streams) stream.end();
    }
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

function readBody(
  req: IncomingMessage,
  limit: number,
  done: (body: string, bytes: number, overflow: boolean) => void,
): void {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let finished = false;
  const finish = (overflow: boolean) => {
    if (finished) return;
    finished = true;
    done(Buffer.concat(chunks).toString('utf8'), bytes, overflow);
  };
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > limit) {
      // Answer 413 at once and stop reading: a client cannot make the server buffer a huge body.
      req.removeAllListeners('data');
      req.resume();
      finish(true);
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => finish(false));
  req.on('error', () => {
    finished = true;
  });
}

function toRequest(
  req: IncomingMessage,
  body: string | undefined,
  bodyBytes: number,
): EmulatorRequest {
  return {
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    headers: req.headers,
    body,
    bodyBytes,
  };
}

function respond(
  emulator: Emulator,
  request: EmulatorRequest,
  res: ServerResponse,
  state: ServerState,
  heartbeatMs = 15_000,
): void {
  const response = emulator.handle(request);
  if (response.stream) {
    openEventStream(emulator, response, res, state.streams, heartbeatMs);
    return;
  }
  if (response.delayMs > 0) setTimeout(() => send(res, response, state), response.delayMs);
  else send(res, response, state);
}

function send(res: ServerResponse, response: EmulatorResponse, state: ServerState): void {
  if (res.destroyed) return;
  if (state.closing) response.headers.connection = 'close';
  const payload =
    response.text ?? (response.body === undefined ? '' : JSON.stringify(response.body));
  response.headers['content-length'] = String(Buffer.byteLength(payload));
  res.writeHead(response.status, response.headers);
  res.end(payload);
}

function openEventStream(
  emulator: Emulator,
  response: EmulatorResponse,
  res: ServerResponse,
  streams: Set<ServerResponse>,
  heartbeatMs: number,
): void {
  res.writeHead(response.status, response.headers);
  res.write(SSE_PREAMBLE);
  streams.add(res);
  const unsubscribe = emulator.subscribe((event) => res.write(formatServerSentEvent(event)));
  const heartbeat = setInterval(() => res.write(SSE_HEARTBEAT), heartbeatMs);
  heartbeat.unref();
  res.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
    streams.delete(res);
  });
}
