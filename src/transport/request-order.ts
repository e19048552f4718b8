import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConnectionState } from './connection-state.js';

/** What runs a request read on a connection. */
export type RunRequest = (
  connection: ConnectionState,
  req: IncomingMessage,
  res: ServerResponse,
) => void;

/**
 * Takes a request read on a connection: it runs now, or, behind one whose body is still
 * arriving, after it, in order.
 */
export function takeRequest(
  connection: ConnectionState,
  req: IncomingMessage,
  res: ServerResponse,
  run: RunRequest,
): void {
  connection.lastAnswer = res;
  const behind = connection.behind;
  if (behind === undefined) run(connection, req, res);
  else behind.push(() => run(connection, req, res));
}

/** Holds the requests read from now on behind `req`, whose body is about to be read. */
export function holdBehind(connection: ConnectionState, req: IncomingMessage): void {
  connection.readingBody = req;
  connection.behind = [];
}

/** Runs the requests that waited behind a body now read. */
export function releaseBehind(connection: ConnectionState): void {
  const queue = connection.behind;
  connection.behind = undefined;
  while (queue !== undefined && queue.length > 0) {
    (queue.shift() as () => void)();
    // That one reads a body in turn: the rest wait behind it.
    const next = connection.behind as Array<() => void> | undefined;
    if (next !== undefined) {
      next.push(...queue);
      return;
    }
  }
}
