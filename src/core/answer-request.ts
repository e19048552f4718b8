import type { Announcer } from './admin/admin.js';
import { isDevApiPath } from './admin/dev-api.js';
import { countRequest } from './admin/metrics.js';
import { andThen, recover, type MaybePromise } from './async/maybe-promise.js';
import type { RequestRecord } from './records/records.js';
import type { EmulatorState, InstanceCounters } from './service/emulator-state.js';
import {
  splitUrl,
  type EmulatorRequest,
  type EmulatorResponse,
  type GiveWay,
} from './service/exchange.js';
import { runServiceRequest, type PipelineContext } from './service/pipeline.js';
import { createProblem } from './service/problems.js';
import { blankRecord, clip, completeRecord } from './service/request-facts.js';
import type { ServiceContext } from './service/service.js';
import { problemResponse } from './service/service-response.js';
import { isStoreUnavailable, type StoreUnavailableError } from './store/emulator-store.js';
import type { Clock } from './time/clock.js';

/** What answering a request needs of an emulator. */
export interface RequestContext {
  readonly state: EmulatorState;
  readonly clock: Clock;
  readonly pipeline: PipelineContext;
  readonly service: ServiceContext;
  readonly counters: InstanceCounters;
  readonly announce: Announcer['all'];
  /** Tokens a client may send where they do not belong; records never show them. */
  readonly secrets: readonly string[];
  /** The most bytes of body read for a request to a path. */
  bodyLimit(path: string): number;
  /** The dev API's answer. */
  devApi(
    request: EmulatorRequest,
    path: string,
    query: string,
    giveWay: GiveWay | undefined,
  ): MaybePromise<EmulatorResponse>;
}

/** Characters of query and body past which a request's record is completed at once. */
const EAGER_RECORD_CHARS = 2_048;

/**
 * Answers one request: the dev API's, or the service's (journaled, counted and announced). Never
 * throws nor rejects: what fails is a 503 (the shared store) or a 500.
 */
export function answerRequest(
  context: RequestContext,
  request: EmulatorRequest,
  giveWay?: GiveWay,
): MaybePromise<EmulatorResponse> {
  const now = context.clock.now();
  const { path, query } = splitUrl(request.url);
  const failed = (error: unknown) => failure(context, error, request.method, path, now);
  try {
    const tooLarge = oversized(context, request, path);
    if (tooLarge !== undefined) return tooLarge;
    if (isDevApiPath(path)) return recover(context.devApi(request, path, query, giveWay), failed);
    const { pipeline, service, secrets } = context;
    return recover(
      andThen(runServiceRequest(pipeline, service, request, path, query, now), (answer) => {
        // A record keeps its request's fields, parsed, until it is read: for a large query
        // or body (thousands of parameters, say) that is many times its size for as long as
        // the journal holds it. Such a record is completed now (at most 32 fields, clipped).
        if (query.length + (request.body?.length ?? 0) > EAGER_RECORD_CHARS)
          completeRecord(answer.record, secrets);
        recordRequest(context, answer.record);
        return answer.response;
      }),
      failed,
    );
  } catch (error) {
    return failed(error);
  }
}

/**
 * Journals, counts and announces a finished request. Its id is given here, so that ids grow in
 * the order of the journal: a request answered late (a slow real service behind `--upstream`, a
 * shared store) is journaled after one that came later and was answered first, and a reader
 * paging by id (`after_id`, the dashboard, `uas top`) would skip it were it numbered on arrival.
 */
export function recordRequest(context: RequestContext, entry: RequestRecord): void {
  const { state, announce } = context;
  entry.id = state.nextRequestId++;
  countRequest(state.counters.requests, entry.operation ?? 'none', entry.status);
  state.journal.push(entry);
  if (announce.active)
    announce.emit({
      type: 'request',
      request: announce.whole ? completeRecord(entry, context.secrets) : entry,
    });
}

/**
 * A body over the limit is refused first, whatever the path, method or token: a transport stops
 * reading it (and closes the connection), so nothing else can be judged.
 */
function oversized(
  context: RequestContext,
  request: EmulatorRequest,
  path: string,
): EmulatorResponse | undefined {
  const bytes = request.bodyBytes ?? request.body?.length ?? 0;
  const limit = context.bodyLimit(path);
  if (bytes <= limit) return undefined;
  const problem = createProblem(
    'payload-too-large',
    `the body has ${bytes} bytes or more; at most ${limit} are accepted`,
    { instance: path },
  );
  const response = problemResponse(context.state.config, context.pipeline.random, problem);
  response.delayMs = 0;
  response.close = true;
  return response;
}

/**
 * What a request gets when answering it failed: 503 when the shared store could not be
 * reached, 500 (with what failed, so it can be reported) for anything else. Nothing may crash
 * a transport.
 */
function failure(
  context: RequestContext,
  error: unknown,
  method: string,
  path: string,
  now: number,
): EmulatorResponse {
  const { state } = context;
  const unavailable = isStoreUnavailable(error);
  if (unavailable) context.counters.storeErrors++;
  const problem = unavailable
    ? createProblem(
        'store-unavailable',
        `${
          (error as StoreUnavailableError).answered === true
            ? 'the shared store answered but did not keep this change'
            : 'the shared store did not answer'
        }: ${(error as Error).message}; ${
          (error as StoreUnavailableError).bucketCharged === true
            ? 'the bucket had taken its token, which is not given back; nothing else was changed'
            : 'nothing was changed'
        }`,
        { instance: path },
      )
    : createProblem(
        'internal-error',
        `the emulator failed on this request: ${(error as Error).message}`,
        { instance: path },
      );
  const response = problemResponse(state.config, context.pipeline.random, problem);
  if (unavailable) {
    response.headers['retry-after'] = '1';
    response.delayMs = 0;
  }
  if (!isDevApiPath(path)) {
    const entry = blankRecord(0, now, clip(method), clip(path));
    entry.status = problem.status;
    entry.problem = unavailable ? 'store-unavailable' : 'internal-error';
    recordRequest(context, entry);
  }
  return response;
}
