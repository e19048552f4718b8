import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Problem } from '../core/service/problems.js';

/** Milliseconds a socket may stay open after its last answer was written and ended. */
const LINGER_MS = 1_000;

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
function lingerThenDestroy(socket: Socket): void {
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
