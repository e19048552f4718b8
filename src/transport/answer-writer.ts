import type { ServerResponse } from 'node:http';
import { STALLED_ANSWER_MS, watchStalledAnswer } from './answer-queue.js';
import type { TransportResponse } from './transport-exchange.js';

/**
 * Writes a whole answer; `close` adds `Connection: close` and ends the connection after it. An
 * answer the client does not take within `stalledAnswerMs` closes its connection.
 */
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
