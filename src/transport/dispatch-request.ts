import type { ServerResponse } from 'node:http';
import { createProblem } from '../core/service/problems.js';
import { giveWay } from '../runtime/give-way.js';
import type { ConnectionState } from './connection-state.js';
import { isSitePath } from './static-site.js';
import { pathOf } from './request-target.js';
import { answerFromCore, sendAnswer, skipRequest } from './send-answer.js';
import type { TransportContext } from './transport-context.js';
import type { Engine, TransportRequest, TransportResponse } from './transport-exchange.js';

/** Methods the Fetch API can carry; others (TRACE, TRACK, CONNECT) go to the core directly. */
const FETCH_METHOD = /^(?!(?:TRACE|TRACK|CONNECT)$)[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Sends a request read whole to its engine, or to the core for what Fetch cannot carry. */
export function dispatchRequest(
  context: TransportContext,
  connection: ConnectionState,
  request: TransportRequest,
  res: ServerResponse,
): void {
  const { emulator, engine, shutdown } = context;
  const page = siteAnswer(context, request);
  if (page !== undefined) {
    sendAnswer(context, connection, res, page);
    return;
  }
  const bytes = request.bodyBytes ?? 0;
  const tooLarge = bytes > 0 && bytes > emulator.bodyLimit(pathOf(request.url));
  // Targets other than a path (`*`, `ftp://host/x`) go to the core too: Fetch would rewrite
  // them, and both engines must answer alike.
  if (
    engine === undefined ||
    tooLarge ||
    !FETCH_METHOD.test(request.method) ||
    request.url.charCodeAt(0) !== 47 /* "/" */
  ) {
    answerFromCore(context, connection, res, emulator.handle(request, giveWay));
    return;
  }
  const controller = shutdown.track(res);
  request.signal = controller.signal;
  request.graceOver = shutdown.graceOver.signal;
  request.clientLeft = shutdown.clientLeft(res);
  const run = (): Promise<void> => {
    // Its connection was closed while the requests before it ran, or one of them began an
    // event stream: nobody takes its answer.
    if (connection.socket.destroyed || connection.streaming) {
      shutdown.settle(controller);
      skipRequest(connection, res);
      return Promise.resolve();
    }
    // Held until its answer is sent (a relayed one holds on until it is told how it ended).
    const release = shutdown.hold();
    return engineAnswer(engine, request)
      .then((response) => {
        shutdown.settle(controller);
        sendAnswer(context, connection, res, response);
      })
      .finally(release);
  };
  // A connection's requests run one after another, as the default engine runs them: a client
  // that pipelines many cannot have them all under way at once (and all their answers built,
  // after its connection was closed for queuing too many).
  const before = connection.engineTurn;
  connection.engineTurn = before === undefined ? run() : before.then(run);
}

/**
 * The static site's answer to a request for one of its files, while the dev API is on (the
 * transport has checked the request's Host as for the dev API); undefined for any other request.
 */
function siteAnswer(
  context: TransportContext,
  request: TransportRequest,
): TransportResponse | undefined {
  const { site, emulator } = context;
  if (site === undefined || !emulator.devApi.enabled) return undefined;
  const path = pathOf(request.url);
  return isSitePath(path)
    ? site({ method: request.method, path, headers: request.headers })
    : undefined;
}

/** The engine's answer to a request: its own, 404 when no handler answered, 500 when one failed. */
function engineAnswer(engine: Engine, request: TransportRequest): Promise<TransportResponse> {
  return engine(request).then(
    (response) =>
      response ??
      problemResponse(createProblem('not-found', `no handler answers ${pathOf(request.url)}`)),
    (error: unknown) =>
      problemResponse(
        createProblem('internal-error', `a handler failed: ${(error as Error).message}`),
      ),
  );
}

function problemResponse(problem: ReturnType<typeof createProblem>): TransportResponse {
  return {
    status: problem.status,
    headers: { 'content-type': 'application/problem+json' },
    body: JSON.stringify(problem),
  };
}
