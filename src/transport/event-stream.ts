import type { ServerResponse } from 'node:http';
import { createProblem } from '../core/service/problems.js';
import { writeResponse } from './answer-writer.js';
import type { ConnectionState } from './connection-state.js';
import { fromCore, problemAnswer } from './core-answer.js';
import { pumpStream } from './stream-pump.js';
import type { TransportContext } from './transport-context.js';
import type { TransportResponse } from './transport-exchange.js';

/**
 * Starts an event stream on a connection: one at most per connection, none at shutdown or for
 * a client already gone. Ended at shutdown; once it ends, a connection on which requests were
 * read behind it (never run) is closed.
 */
export function startEventStream(
  context: TransportContext,
  connection: ConnectionState,
  res: ServerResponse,
  response: TransportResponse & { stream: ReadableStream<Uint8Array> },
): void {
  const { shutdown } = context;
  if (shutdown.closing || res.destroyed) {
    response.stream.cancel().catch(() => {});
    if (!res.destroyed)
      writeResponse(
        res,
        { ...response, stream: undefined, body: '' },
        shutdown.closes(connection, res, true),
      );
    return;
  }
  if (connection.streaming) {
    // A stream never ends by itself, so a second one pipelined behind it would never go out,
    // yet hold a reader's place: one stream per connection.
    response.stream.cancel().catch(() => {});
    const refusal = createProblem(
      'too-many-event-readers',
      'this connection is reading events already; open another connection for another stream',
    );
    writeResponse(
      res,
      fromCore(problemAnswer(refusal, false)),
      shutdown.closes(connection, res, false),
      context.stalledAnswerMs,
    );
    return;
  }
  connection.streaming = true;
  res.on('close', () => {
    connection.streaming = false;
    // Requests read behind it were not run: nothing more will be answered on it.
    if (connection.skipped) connection.socket.destroySoon();
  });
  shutdown.holdStream(res, pumpStream(res, response, context.heartbeatMs));
}
