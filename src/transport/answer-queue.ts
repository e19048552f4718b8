import type { ServerResponse } from 'node:http';
import { connectionOf, type ConnectionState } from './connection-state.js';

/**
 * Milliseconds a client has, by default, to take an answer that did not fit in the socket's
 * buffers: one that never reads would otherwise hold the answer (a large journal, say) and its
 * socket for ever.
 */
export const STALLED_ANSWER_MS = 30_000;

/** Bytes of answers queued behind others on a connection, at most, before it is closed. */
export const MAX_QUEUED_ANSWER_BYTES = 16 * 1_048_576;

/**
 * Bytes of answers queued on all connections of the process, at most: past it, the connection
 * that queues more is closed, so that many connections cannot each hold their 16 MiB.
 */
export const MAX_QUEUED_ANSWER_BYTES_TOTAL = 64 * 1_048_576;

/** Bytes of answers queued on all connections. */
let queuedTotal = 0;

/**
 * Closes the connection of an answer just written, when it is not taken within `stalledAnswerMs`
 * of when it can be: what the socket could not take at once waits in memory, and so does an answer
 * queued behind another on a pipelined connection (`queued`: it has no socket yet); neither may
 * wait for ever. A queued answer also counts against {@link MAX_QUEUED_ANSWER_BYTES}: a client
 * that pipelines requests for large answers and never reads cannot make the server hold them all.
 */
export function watchStalledAnswer(
  res: ServerResponse,
  queued: boolean,
  stalledAnswerMs: number,
): void {
  const socket = res.req.socket;
  // A closed connection writes nothing more.
  if (socket.destroyed) return;
  const bytes = queued ? res.writableLength : 0;
  const owed = queued ? owedOn(connectionOf(socket)) : undefined;
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  // A queued answer's time runs from when it can be written (the answers before it are out),
  // not while it waits behind one that is slow by design (a latency, a scripted fault).
  const start = () => {
    if (done || socket.destroyed) return;
    timer = setTimeout(() => socket.destroy(), stalledAnswerMs);
    timer.unref();
    owed?.stallTimers?.add(timer);
  };
  if (owed !== undefined) {
    owed.queuedBytes += bytes;
    queuedTotal += bytes;
    if (owed.queuedBytes > MAX_QUEUED_ANSWER_BYTES || queuedTotal > MAX_QUEUED_ANSWER_BYTES_TOTAL)
      socket.destroy();
  }
  if (queued) res.once('socket', start);
  else start();
  const taken = () => {
    if (done) return;
    done = true;
    if (timer !== undefined) clearTimeout(timer);
    if (owed !== undefined && !owed.closed) {
      if (timer !== undefined) owed.stallTimers?.delete(timer);
      owed.queuedBytes -= bytes;
      queuedTotal -= bytes;
    }
  };
  res.once('finish', taken);
  res.once('close', taken);
}

/**
 * A connection that has answers queued: at its first, it starts counting them, and forgets them
 * (bytes and timers) when it closes.
 */
function owedOn(connection: ConnectionState): ConnectionState {
  if (connection.stallTimers !== undefined) return connection;
  const timers = new Set<NodeJS.Timeout>();
  connection.stallTimers = timers;
  connection.socket.once('close', () => {
    queuedTotal -= connection.queuedBytes;
    for (const pending of timers) clearTimeout(pending);
    timers.clear();
    connection.queuedBytes = 0;
    connection.closed = true;
  });
  return connection;
}
