import type { ServerResponse } from 'node:http';
import { isPromise, type MaybePromise } from '../core/async/maybe-promise.js';
import type { EmulatorResponse } from '../core/service/exchange.js';
import { writeResponse } from './answer-writer.js';
import type { ConnectionState } from './connection-state.js';
import { emulatorFailed, fromCore } from './core-answer.js';
import { delayAnswer } from './delay-answer.js';
import { relayStream } from './relay-stream.js';
import { startEventStream } from './event-stream.js';
import type { TransportContext } from './transport-context.js';
import type { TransportResponse } from './transport-exchange.js';

/** Sends an answer on its connection: written whole, or streamed (server-sent events). */
export function sendAnswer(
  context: TransportContext,
  connection: ConnectionState,
  res: ServerResponse,
  response: TransportResponse,
): void {
  if (response.relay !== undefined)
    relayStream(
      res,
      response as TransportResponse & { relay: ReadableStream<Uint8Array> },
      connection,
      context.shutdown,
    );
  else if (response.stream === undefined)
    writeResponse(
      res,
      response,
      context.shutdown.closes(connection, res, response.close),
      context.stalledAnswerMs,
    );
  else
    startEventStream(
      context,
      connection,
      res,
      response as TransportResponse & { stream: ReadableStream<Uint8Array> },
    );
}

/** Answers with the core's response, after its delay when it has one. */
export function answerFromCore(
  context: TransportContext,
  connection: ConnectionState,
  res: ServerResponse,
  pending: MaybePromise<EmulatorResponse>,
): void {
  const { shutdown } = context;
  if (isPromise(pending)) {
    // A shared store answers later: the connection counts as busy until it has.
    const controller = shutdown.track(res);
    pending.catch(emulatorFailed).then((response) => {
      shutdown.settle(controller);
      answerFromCore(context, connection, res, response);
    });
    return;
  }
  const response = pending;
  // Decided now, whatever the delay: requests read after it are not run.
  if (response.close === true) connection.closingAfter = true;
  const answer = fromCore(response);
  if (response.delayMs <= 0) {
    sendAnswer(context, connection, res, answer);
    return;
  }
  const controller = shutdown.track(res);
  void delayAnswer(context.emulator, response.delayMs, controller.signal).then(() => {
    shutdown.settle(controller);
    sendAnswer(context, connection, res, answer);
  });
}

/**
 * Leaves a request unanswered, never run: when its turn comes (after an event stream ends,
 * say), the connection closes instead of waiting for an answer that will not come.
 */
export function skipRequest(connection: ConnectionState, res: ServerResponse): void {
  connection.skipped = true;
  res.destroy();
}
