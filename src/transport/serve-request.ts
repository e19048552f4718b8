import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorResponse } from '../core/service/exchange.js';
import { admitRequest } from './admit-request.js';
import type { ConnectionState } from './connection-state.js';
import { dispatchRequest } from './dispatch-request.js';
import { readRequestBody } from './request-body.js';
import { holdBehind, releaseBehind } from './request-order.js';
import { answerFromCore, skipRequest } from './send-answer.js';
import type { TransportContext } from './transport-context.js';

/**
 * Serves a request whose turn has come on its connection: admitted by its head (or answered at
 * once, its body unread), its body read up to the limit while the requests read after it wait,
 * then dispatched. `refusal` is an answer decided before (an expectation uas does not meet).
 */
export function serveRequest(
  context: TransportContext,
  connection: ConnectionState,
  req: IncomingMessage,
  res: ServerResponse,
  refusal?: EmulatorResponse,
): void {
  if (!connection.runnable()) {
    skipRequest(connection, res);
    return;
  }
  const admission =
    refusal === undefined
      ? admitRequest(context.emulator, context.policy, req)
      : { answer: refusal, request: undefined };
  if (admission.answer !== undefined) {
    answerFromCore(context, connection, res, admission.answer);
    req.resume();
    return;
  }
  const { request, bodyLimit } = admission;
  if (bodyLimit === undefined) {
    dispatchRequest(context, connection, request, res);
    return;
  }
  holdBehind(connection, req);
  readRequestBody(req, bodyLimit, (body, bytes, raw) => {
    connection.readingBody = undefined;
    request.body = body;
    request.rawBody = raw;
    request.bodyBytes = bytes;
    dispatchRequest(context, connection, request, res);
    releaseBehind(connection);
  });
}
