import type { ServerResponse } from 'node:http';
import { SSE_HEARTBEAT } from '../core/admin/server-sent-events.js';
import type { TransportResponse } from './transport-exchange.js';

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
  // The stream was cut off (its reader fell behind): close the connection, drop what is queued.
  const cutOff = () => {
    ended = true;
    clearInterval(heartbeat);
    res.destroy();
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
  reader.closed.catch(cutOff);
  pump(res, reader, () => ended, response.paceMs ?? 0)
    .then(end)
    .catch(cutOff);
  return end;
}

/**
 * Writes what `reader` gives while the socket takes it, until the stream or `ended()` ends; at
 * most one write a turn of the event loop, or every `paceMs`.
 */
async function pump(
  res: ServerResponse,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  ended: () => boolean,
  paceMs: number,
): Promise<void> {
  for (;;) {
    const { done, value } = await reader.read();
    if (done || ended()) return;
    // Node 24 answers true to a write on a corked socket however much it holds: the socket's own
    // need to drain says it.
    if (!res.write(value) || needsDrain(res)) await drained(res);
    if (res.destroyed) return;
    // The events that come during this turn (or pace) wait in the stream, taken at once by the
    // next read.
    await new Promise((next) => (paceMs > 0 ? setTimeout(next, paceMs) : setImmediate(next)));
  }
}

/** Whether `res` or its socket holds more than it should before taking more. */
function needsDrain(res: ServerResponse): boolean {
  return res.writableNeedDrain || res.socket?.writableNeedDrain === true;
}

/**
 * Resolves once `res` has drained (it, or its socket: a write on a corked socket does not tell
 * the answer it needs to drain), or closed.
 */
export function drained(res: ServerResponse): Promise<void> {
  const socket = res.socket;
  return new Promise<void>((resolve) => {
    const go = () => {
      res.off('drain', go);
      res.off('close', go);
      socket?.off('drain', go);
      resolve();
    };
    res.on('drain', go);
    res.on('close', go);
    socket?.on('drain', go);
  });
}
