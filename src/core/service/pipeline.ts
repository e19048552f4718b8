import type { OtpCode } from '../signin/otp-codes.js';
import type { RequestRecord } from '../records/records.js';
import { blankRecord, clip, clipString, deferFacts, misplacedInHeaders } from './request-facts.js';
import type { EmulatorState } from './emulator-state.js';
import { andThen, type MaybePromise } from '../async/maybe-promise.js';
import type { RandomSource } from '../time/random.js';
import { authenticate } from './auth.js';
import { headerValue, type EmulatorRequest, type EmulatorResponse } from './exchange.js';
import { createProblem } from './problems.js';
import { readBodyInput, readExistsInput, type InputResult } from './request-input.js';
import {
  executeCall,
  type ServiceCall,
  type ServiceContext,
  type ServiceResult,
} from './service.js';
import { problemResponse, renderResult } from './service-response.js';
import { matchServiceRoute } from './service-routes.js';

/** What the pipeline needs besides the state: randomness, and who hears of issued codes. */
export interface PipelineContext {
  readonly state: EmulatorState;
  readonly random: RandomSource;
  onCode(code: OtpCode): void;
}

/** The answer to a service request, and its record for the journal. */
export interface PipelineResult {
  response: EmulatorResponse;
  record: RequestRecord;
}

/** The service context of an {@link executeCall}, read through the state (which a reset replaces). */
export function serviceContext(context: PipelineContext): ServiceContext {
  return {
    get config() {
      return context.state.config;
    },
    get ledger() {
      return context.state.store.ledger;
    },
    get directory() {
      return context.state.directory;
    },
    get otp() {
      return context.state.store.codes;
    },
    random: context.random,
    onCode: (code) => context.onCode(code),
  };
}

/**
 * Runs a request of the service (spec section 4) at `now`: route, authenticate, read the input,
 * run the call against its bucket, and render the answer. Records what the request was and what
 * it got, for the journal, `requests()` and `uas check`.
 */
export function runServiceRequest(
  context: PipelineContext,
  service: ServiceContext,
  request: EmulatorRequest,
  path: string,
  query: string,
  now: number,
): MaybePromise<PipelineResult> {
  const { state, random } = context;
  const record = newRecord(state, request, path, now);
  const route = matchServiceRoute(request.method, path);
  if (route.kind === 'not-found') {
    const problem = createProblem('not-found', `there is no resource at ${path}`, {
      instance: path,
    });
    return finishRecord(record, problemResponse(state.config, random, problem), 'unrouted');
  }
  if (route.kind === 'method-not-allowed') {
    const detail = `${path} accepts ${route.allow}, not ${request.method}`;
    const problem = createProblem('method-not-allowed', detail, { instance: path });
    const response = problemResponse(state.config, random, problem, { allow: route.allow });
    return finishRecord(record, response, 'unrouted');
  }
  const { operation } = route;
  record.operation = operation;
  record.merchant_id = route.merchantId === undefined ? undefined : clipString(route.merchantId);
  const auth = authenticate(headerValue(request.headers, 'authorization'), state.directory);
  if (!auth.ok) {
    const problem = createProblem('unauthorized', auth.detail, { instance: path });
    const headers = { 'www-authenticate': auth.challenge };
    return finishRecord(
      record,
      problemResponse(state.config, random, problem, headers),
      'unauthenticated',
    );
  }
  const input =
    operation === 'exists'
      ? readExistsInput(query, state.rules, path)
      : readBodyInput(request, operation, state.rules, path);
  describeInput(record, request, input, operation === 'exists' ? 'query' : 'body', query);
  const fault = state.faults.take(operation);
  const call: ServiceCall = {
    operation,
    clientId: auth.clientId,
    callerId: input.callerId,
    merchantId: route.merchantId,
    input,
    fault,
  };
  record.client_id = auth.clientId;
  return andThen(executeCall(service, call, now, path), (result) => {
    const response = renderResult(state.config, random, result, path);
    if (fault !== undefined && fault.latency_ms !== null) response.delayMs = fault.latency_ms;
    return finishRecord(record, response, result.outcome, result);
  });
}

export function newRecord(
  state: EmulatorState,
  request: EmulatorRequest,
  path: string,
  now: number,
): RequestRecord {
  const { headers } = request;
  // Numbered when it is journaled (see recordRequest), not now.
  const record = blankRecord(0, now, clip(request.method), clip(path));
  record.caller_id_misplaced = misplacedInHeaders(headers);
  record.user_agent = clipString(headerValue(headers, 'user-agent'));
  record.idempotency_key = clipString(headerValue(headers, 'idempotency-key'));
  record.retry_attempt = clipString(
    headerValue(headers, 'retry-attempt') ?? headerValue(headers, 'x-retry-attempt'),
  );
  return record;
}

/**
 * Fills in what the request said that filters and logs need at once (e-mail, caller_id and where
 * it was); the rest waits until the record is read.
 */
export function describeInput(
  record: RequestRecord,
  request: EmulatorRequest,
  input: InputResult,
  place: 'query' | 'body',
  query: string,
): void {
  const fields = input.fields;
  if (fields !== undefined) {
    record.email = clipString(fields.email);
    record.phone_number = clipString(fields.phone_number);
    if (typeof fields.caller_id === 'string') {
      record.caller_id = clipString(fields.caller_id);
      record.caller_id_source = place;
    }
  }
  deferFacts(record, fields, place, place === 'body' ? query : request.body);
}

function finishRecord(
  record: RequestRecord,
  response: EmulatorResponse,
  outcome: RequestRecord['outcome'],
  result?: ServiceResult,
): PipelineResult {
  record.status = response.status;
  record.outcome = outcome;
  if (result !== undefined) {
    record.bucket = result.bucket;
    record.level = result.level;
    record.remaining = result.state.remaining;
  }
  if (response.status === 429) {
    record.problem = 'quota-exceeded';
    const retryAfter = response.headers['retry-after'];
    record.retry_after = retryAfter === undefined ? undefined : Number(retryAfter);
  } else if (response.status >= 400) {
    record.problem = problemKindOf((response.body as { type: string }).type);
  }
  return { response, record };
}

/** The short name of a problem type: `code-invalid`, `quota-exceeded`, ... */
export function problemKindOf(type: string): string {
  const hash = type.lastIndexOf('#');
  return hash >= 0 ? type.slice(hash + 1) : type.slice(type.lastIndexOf(':') + 1);
}
