import { bucketKey, type Level } from '../limits/bucket-key.js';
import { andThen, type MaybePromise } from '../async/maybe-promise.js';
import type { RequestRecord } from '../records/records.js';
import { authenticate } from './auth.js';
import { headerValue, type EmulatorRequest, type EmulatorResponse } from './exchange.js';
import { describeInput, newRecord, type PipelineContext } from './pipeline.js';
import { createProblem } from './problems.js';
import { readBodyInput, readExistsInput } from './request-input.js';
import { completeRecord } from './request-facts.js';
import { upstreamFacts } from './upstream-answer.js';
import { scrubSecrets } from '../records/redact.js';
import { secondsUp } from '../limits/rate-limit-headers.js';
import type { ServiceContext, ServiceResult } from './service.js';
import { problemResponse, renderResult } from './service-response.js';
import { matchServiceRoute } from './service-routes.js';

/**
 * Who decides in front of the real service: only the real service (`upstream`), uas's buckets
 * first, refusing locally (`local`), or uas's buckets counting what they would refuse (`shadow`).
 */
export const ENFORCE_MODES = ['upstream', 'local', 'shadow'] as const;

/** One of {@link ENFORCE_MODES}. */
export type EnforceMode = (typeof ENFORCE_MODES)[number];

/** A request on its way to the real service. */
export interface UpstreamAdmission {
  /** Its record, finished by `finishUpstreamRecord` once the real service (or uas) answered. */
  record: RequestRecord;
  /**
   * An answer made here, not forwarded: 404 or 405 off the three operations, a 429 of uas's
   * buckets with `--enforce local`. Undefined: forward the request.
   */
  answer: EmulatorResponse | undefined;
}

/** Who the request is, for the record and uas's buckets. */
export interface UpstreamCaller {
  /**
   * The client a token not in the config is counted as (the proxy derives it from the token,
   * never the token itself). A configured client's token counts as that client.
   */
  label: string | undefined;
  /** The token sent, redacted wherever a record would show it. */
  token: string | undefined;
}

/**
 * Reads a request bound for the real service as the emulator reads its own (operation, e-mail,
 * caller_id, fields), and, with `--enforce local` or `shadow`, counts it in uas's bucket. Every
 * routed request is counted, valid or not: the real service judges validity.
 */
export function admitUpstreamRequest(
  context: PipelineContext,
  service: ServiceContext,
  request: EmulatorRequest,
  caller: UpstreamCaller,
  enforce: EnforceMode,
  now: number,
): MaybePromise<UpstreamAdmission> {
  const { state, random } = context;
  const mark = request.url.indexOf('?');
  const path = mark === -1 ? request.url : request.url.slice(0, mark);
  const query = mark === -1 ? '' : request.url.slice(mark + 1);
  const record = newRecord(state, request, path, now);
  const secrets = caller.token === undefined ? [] : [caller.token];
  const route = matchServiceRoute(request.method, path);
  if (route.kind !== 'operation') {
    const problem =
      route.kind === 'not-found'
        ? createProblem('not-found', `uas forwards only the service's operations, not ${path}`)
        : createProblem(
            'method-not-allowed',
            `${path} accepts ${route.allow}, not ${request.method}`,
          );
    const headers: Record<string, string> =
      route.kind === 'not-found' ? {} : { allow: route.allow };
    const answer = problemResponse(state.config, random, problem, headers);
    answer.delayMs = 0;
    record.status = problem.status;
    record.problem = route.kind;
    return { record: completeRecord(record, secrets), answer };
  }
  const { operation } = route;
  record.operation = operation;
  record.merchant_id = route.merchantId;
  const auth = authenticate(headerValue(request.headers, 'authorization'), state.directory);
  const clientId = auth.ok ? auth.clientId : caller.label;
  record.client_id = clientId;
  const input =
    operation === 'exists'
      ? readExistsInput(query, state.rules, path)
      : readBodyInput(request, operation, state.rules, path);
  describeInput(record, request, input, operation === 'exists' ? 'query' : 'body', query);
  completeRecord(record, secrets);
  record.upstream = upstreamFacts();
  if (enforce === 'upstream' || clientId === undefined) return { record, answer: undefined };
  return countLocally(service, record, input.callerId, clientId, enforce, now, path, secrets);
}

/** Takes a token from uas's own bucket: a refusal is answered here with `--enforce local`. */
function countLocally(
  service: ServiceContext,
  record: RequestRecord,
  callerId: string | undefined,
  clientId: string,
  enforce: 'local' | 'shadow',
  now: number,
  path: string,
  secrets: readonly string[],
): MaybePromise<UpstreamAdmission> {
  const { config } = service;
  const level: Level = callerId === undefined ? 'client' : 'caller';
  const bucket = bucketKey(clientId, callerId, config.limits.callerScope);
  const taken = service.ledger.take({
    key: bucket,
    level,
    now,
    policy: config.limits[level],
    cost: config.limits.cost[record.operation ?? 'exists'],
    mode: 'decide',
    shadow: enforce === 'shadow',
    valid: true,
    countInvalid: true,
  });
  return andThen(taken, ({ verdict, state }) => {
    const refused = verdict !== 'allowed';
    record.bucket = scrubSecrets(bucket, secrets);
    record.level = level;
    record.remaining = state.remaining;
    const facts = record.upstream as NonNullable<RequestRecord['upstream']>;
    facts.local = refused ? 'refused' : 'allowed';
    if (!refused || enforce === 'shadow') return { record, answer: undefined };
    const wait = Math.max(1, secondsUp(state.retryAfterMs));
    const result: ServiceResult = {
      status: 429,
      outcome: 'rate-limited',
      bucket,
      level,
      state,
      resetSeconds: wait,
      body: undefined,
      text: undefined,
    };
    const answer = renderResult(config, { next: () => 0 }, result, path);
    answer.delayMs = 0;
    facts.answered_by = 'local';
    record.status = 429;
    record.outcome = 'rate-limited';
    record.problem = 'quota-exceeded';
    const retryAfter = answer.headers['retry-after'];
    record.retry_after = retryAfter === undefined ? undefined : Number(retryAfter);
    return { record, answer };
  });
}
