import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { SSE_HEARTBEAT } from '../core/admin/server-sent-events.js';
import type { Problem } from '../core/service/problems.js';

/** An answer as an engine gives it to the transport. */
export interface TransportResponse {
  status: number;
  headers: Record<string, string | string[]>;
  /** The whole body. */
  body?: string | Uint8Array | undefined;
  /** A body to stream as its reader takes it (server-sent events), instead of `body`. */
  stream?: ReadableStream<Uint8Array> | undefined;
  /** Close the connection after this answer. */
  close?: boolean | undefined;
}

/** Milliseconds a socket may stay open after its last answer was written and ended. */
const LINGER_MS = 1_000;

/**
 * Milliseconds a client has, by default, to take an answer that did not fit in the socket's
 * buffers: one that never reads would otherwise hold the answer (a large journal, say) and its
 * socket for ever.
 */
export const STALLED_ANSWER_MS = 30_000;

/** Writes a whole answer; `close` adds `Connection: close` and ends the connection after it. */
export function writeResponse(
  res: ServerResponse,
  response: TransportResponse,
  close: boolean,
  stalledAnswerMs: number = STALLED_ANSWER_MS,
): void {
  if (res.destroyed || res.headersSent) return;
  const { headers } = response;
  if (close) headers.connection = 'close';
  const body = response.body ?? '';
  headers['content-length'] = String(
    typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength,
  );
  res.writeHead(response.status, headers);
  res.end(body);
  // What the socket could not take at once waits in memory, and so does an answer queued behind
  // another on a pipelined connection (it has no socket yet): neither may wait for ever.
  const queued = res.socket === null;
  if (queued || (res.socket?.writableLength ?? 0) > 65_536)
    watchStalledAnswer(res, queued, stalledAnswerMs);
}

/** Bytes of answers queued behind others on a connection, at most, before it is closed. */
export const MAX_QUEUED_ANSWER_BYTES = 16 * 1_048_576;

/**
 * Bytes of answers queued on all connections of the process, at most: past it, the connection
 * that queues more is closed, so that many connections cannot each hold their 16 MiB.
 */
export const MAX_QUEUED_ANSWER_BYTES_TOTAL = 64 * 1_048_576;

/** Bytes of answers queued on all connections. */
let queuedTotal = 0;

/** Bytes of answers queued on each pipelined connection and not yet written. */
const queuedOn = new WeakMap<Socket, QueuedAnswers>();

interface QueuedAnswers {
  bytes: number;
  /** Its connection closed: answers still queued will never be written (nor finish). */
  closed: boolean;
  /**
   * Their stall timers, cleared when the connection closes: a timer would otherwise keep the
   * closed connection, and the answers queued on it, in memory until it fired.
   */
  timers: Set<NodeJS.Timeout>;
}

/**
 * Closes the connection of an answer not taken within `stalledAnswerMs`. A queued answer also
 * counts against {@link MAX_QUEUED_ANSWER_BYTES}: a client that pipelines requests for large
 * answers and never reads cannot make the server hold them all.
 */
function watchStalledAnswer(res: ServerResponse, queued: boolean, stalledAnswerMs: number): void {
  const socket = res.req.socket;
  // A closed connection writes nothing more.
  if (socket.destroyed) return;
  const bytes = queued ? res.writableLength : 0;
  let owed = queued ? queuedOn.get(socket) : undefined;
  if (queued && owed === undefined) {
    const entry: QueuedAnswers = { bytes: 0, closed: false, timers: new Set() };
    owed = entry;
    queuedOn.set(socket, entry);
    socket.once('close', () => {
      queuedTotal -= entry.bytes;
      for (const pending of entry.timers) clearTimeout(pending);
      Object.assign(entry, { bytes: 0, closed: true, timers: new Set() });
    });
  }
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  // A queued answer's time runs from when it can be written (the answers before it are out),
  // not while it waits behind one that is slow by design (a latency, a scripted fault).
  const start = () => {
    if (done || socket.destroyed) return;
    timer = setTimeout(() => socket.destroy(), stalledAnswerMs);
    timer.unref();
    owed?.timers.add(timer);
  };
  if (owed !== undefined) {
    owed.bytes += bytes;
    queuedTotal += bytes;
    if (owed.bytes > MAX_QUEUED_ANSWER_BYTES || queuedTotal > MAX_QUEUED_ANSWER_BYTES_TOTAL)
      socket.destroy();
  }
  if (queued) res.once('socket', start);
  else start();
  const taken = () => {
    if (done) return;
    done = true;
    if (timer !== undefined) clearTimeout(timer);
    if (owed !== undefined && !owed.closed) {
      if (timer !== undefined) owed.timers.delete(timer);
      owed.bytes -= bytes;
      queuedTotal -= bytes;
    }
  };
  res.once('finish', taken);
  res.once('close', taken);
}

/**
 * Streams `stream` to the client as fast as it reads, no faster: the next chunk is pulled only
 * once the socket has taken the last one, so what a slow reader has not taken waits in the
 * stream's own bounded queue (which cuts the reader off when it is full). Heartbeat comments go
 * out while the stream is idle. Returns the function that ends the stream (shutdown).
 */
export function pumpStream(
  res: ServerResponse,
  response: TransportResponse & { stream: ReadableStream<Uint8Array> },
  heartbeatMs: number,
): () => void {
  res.writeHead(response.status, response.headers);
  res.flushHeaders();
  const reader = response.stream.getReader();
  let ended = false;
  // A reader that closes its side of the connection has gone (the server keeps half-open
  // connections to finish answers): its stream ends now, not at the next heartbeat's failed write.
  // The request's socket: a stream answering a pipelined request has none of its own until the
  // answers before it are out.
  const socket = res.req.socket;
  const end = () => {
    if (ended) return;
    ended = true;
    socket.off('end', end);
    clearInterval(heartbeat);
    reader.cancel().catch(() => {});
    if (!res.destroyed) res.end();
  };
  const heartbeat = setInterval(() => {
    if (!res.writableNeedDrain) res.write(SSE_HEARTBEAT);
  }, heartbeatMs);
  heartbeat.unref();
  res.on('close', end);
  // It may have closed its side already, while the answers before this one went out.
  if (socket.readableEnded) queueMicrotask(end);
  else socket.once('end', end);
  // A stream cut off while the pump waits for the socket to drain (a reader that never reads)
  // closes the connection now, not when the reader next reads.
  reader.closed.catch(() => {
    ended = true;
    clearInterval(heartbeat);
    res.destroy();
  });
  const pump = async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || ended) break;
      if (!res.write(value))
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off('drain', go);
            res.off('close', go);
            resolve();
          };
          res.on('drain', go);
          res.on('close', go);
        });
      if (res.destroyed) break;
    }
    end();
  };
  pump().catch(() => {
    // The stream was cut off (its reader fell behind): close the connection, drop what is queued.
    ended = true;
    clearInterval(heartbeat);
    res.destroy();
  });
  return end;
}

/**
 * Answers on a raw socket, outside of any request (a parser error, a timeout, CONNECT), then
 * closes it: ended at once, and destroyed shortly after even when the client never closes its
 * side, so a half-open socket cannot hold a descriptor.
 */
export function answerSocket(
  socket: Socket,
  problem: Problem,
  headers: Record<string, string> = {},
): void {
  if (socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(problem);
  const lines = [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}`,
    'content-type: application/problem+json',
    'cache-control: no-store',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
  lingerThenDestroy(socket);
}

/** Destroys a socket that is still open {@link LINGER_MS} after it was ended. */
export function lingerThenDestroy(socket: Socket): void {
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
