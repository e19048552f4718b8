import { bucketKey, type Level } from '../limits/bucket-key.js';
import type { BucketLedger, BucketTaken } from '../limits/bucket-ledger.js';
import { andThen, isPromise, type MaybePromise } from '../async/maybe-promise.js';
import type { Operation, ResolvedConfig } from '../config/config.js';
import { isStoreUnavailable } from '../store/emulator-store.js';
import type { Directory } from '../signin/directory.js';
import type { Fault } from './faults.js';
import { checkMerchant, runOperation } from './operations.js';
import { createProblem, type Problem } from './problems.js';
import type { OtpCode, OtpStore } from '../signin/otp-codes.js';
import type { RandomSource } from '../time/random.js';
import { secondsUp } from '../limits/rate-limit-headers.js';
import type { Outcome } from '../records/records.js';
import type { InputResult } from './request-input.js';
import type { BucketDecision } from '../limits/token-bucket.js';

/** A call after routing, authentication and input parsing. */
export interface ServiceCall {
  operation: Operation;
  clientId: string;
  /** The caller_id that selects the bucket; undefined for the client bucket. */
  callerId: string | undefined;
  merchantId: string | undefined;
  input: InputResult;
  /** A fault scripted for this call (`failNext`): it gets that instead of its answer. */
  fault?: Fault | undefined;
}

/** What a call came to, before it is rendered as HTTP. */
export interface ServiceResult {
  status: number;
  outcome: Outcome;
  bucket: string;
  level: Level;
  /** The bucket after the call. */
  state: BucketDecision;
  /** Seconds to the next token, or (on 429) until the call can pass. */
  resetSeconds: number;
  /** The answer (a problem on errors); undefined on 429, whose body is made when rendered. */
  body: unknown;
  /** `body` serialised, when the operation wrote it (see OperationResult). */
  text: string | undefined;
  /** Set when a scripted fault made this answer: its Retry-After, if it has one. */
  scripted?: { retryAfter: number | undefined };
}

/** The state a call runs against; `config` is read afresh on every call (it changes live). */
export interface ServiceContext {
  readonly config: ResolvedConfig;
  readonly ledger: BucketLedger;
  readonly directory: Directory;
  readonly otp: OtpStore;
  readonly random: RandomSource;
  onCode(code: OtpCode): void;
}

/**
 * Runs an authenticated call at `now`: the bucket first (an empty one answers 429), then
 * validation and the merchant (a refused call takes no token), then the operation. Renders no
 * HTTP, so the simulator can drive it directly. Synchronous with the memory store; a shared
 * store (Redis) answers later.
 */
export function executeCall(
  context: ServiceContext,
  call: ServiceCall,
  now: number,
  instance: string,
): MaybePromise<ServiceResult> {
  const { config, random } = context;
  const { operation, clientId, callerId, fault, input } = call;
  const bucket = bucketKey(clientId, callerId, config.limits.callerScope);
  const level: Level = callerId === undefined ? 'client' : 'caller';
  const scriptedError = fault?.status === 500 || fault?.status === 503;
  const injected =
    fault?.status === 429 ||
    (!scriptedError && config.behavior.chaos > 0 && random.next() < config.behavior.chaos);
  // Validation and the merchant are known before the bucket is asked: it is asked once.
  const refusal = !input.ok
    ? input.problem
    : call.merchantId !== undefined
      ? checkMerchant(call.merchantId, clientId, context.directory, instance)
      : undefined;
  const taken = context.ledger.take({
    key: bucket,
    level,
    now,
    policy: config.limits[level],
    cost: config.limits.cost[operation],
    mode: scriptedError ? 'peek' : injected ? 'inject' : 'decide',
    shadow: config.behavior.shadow,
    valid: refusal === undefined,
    countInvalid: config.limits.countInvalid,
  });
  const taking: Taking = {
    context,
    config,
    call,
    now,
    instance,
    bucket,
    level,
    state: NO_STATE,
    charged: false,
  };
  // No closure on the memory store's path, which answers at once.
  return isPromise(taken)
    ? taken.then((answer) => afterTake(taking, refusal, answer))
    : afterTake(taking, refusal, taken);
}

/** The state of a take not answered yet. */
const NO_STATE: BucketDecision = {
  allowed: false,
  tokens: 0,
  remaining: 0,
  retryAfterMs: 0,
  nextTokenMs: 0,
  fullInMs: 0,
};

/** The call once its bucket answered: the 429, the refusal, or the operation. */
function afterTake(
  taking: Taking,
  refusal: Problem | undefined,
  { verdict, state, failedOpen }: BucketTaken,
): MaybePromise<ServiceResult> {
  taking.state = state;
  taking.charged = failedOpen !== true;
  switch (verdict) {
    case 'peeked':
      return scriptedFailure(taking);
    case 'injected':
    case 'rejected':
      return tooMany(taking, verdict === 'injected');
    case 'refused':
    case 'shadow-refused': {
      // Refused for its input; in shadow mode, also what the empty bucket would have refused.
      const outcome = verdict === 'refused' ? 'invalid' : 'shadow-limited';
      return result(taking, (refusal as Problem).status, outcome, reset(state), refusal);
    }
    case 'allowed':
    case 'shadow-limited':
      return run(taking, verdict === 'allowed' ? 'allowed' : 'shadow-limited');
  }
}

/** A call and what its bucket said. */
interface Taking {
  readonly context: ServiceContext;
  /** The config when the call began (a live change may come while a shared store answers). */
  readonly config: ResolvedConfig;
  readonly call: ServiceCall;
  readonly now: number;
  readonly instance: string;
  readonly bucket: string;
  readonly level: Level;
  /** The bucket after the call (set once the bucket answers). */
  state: BucketDecision;
  /** Whether the bucket took its tokens (false when a store away let the call through). */
  charged: boolean;
}

/** Seconds to the bucket's next token. */
const reset = (state: BucketDecision) => secondsUp(state.nextTokenMs);

/** A 500 or 503 scripted by a fault: the call did not run, and its bucket was not charged. */
function scriptedFailure(taking: Taking): ServiceResult {
  const { fault } = taking.call;
  const status = fault?.status === 500 ? 500 : 503;
  const detail = `a ${status} scripted by failNext (POST /__uas/faults); the request did not run and the ${taking.level} bucket was not charged`;
  const problem = createProblem(status === 500 ? 'internal-error' : 'service-unavailable', detail, {
    instance: taking.instance,
  });
  return result(taking, status, 'injected-fault', reset(taking.state), problem, {
    retryAfter: fault?.retry_after ?? undefined,
  });
}

/** A 429: the bucket is empty, or chaos or a fault injected one. */
function tooMany(taking: Taking, injected: boolean): ServiceResult {
  const { call, state, config } = taking;
  const { random } = taking.context;
  const scripted = call.fault?.status === 429;
  // A 429 chaos injects asks for a wait drawn in behavior.chaosRetryAfter (never less than
  // the bucket's own), so a client that waits a fixed second instead of reading
  // Retry-After is caught resending too early.
  const empty = state.retryAfterMs > 0 ? secondsUp(state.retryAfterMs) : 0;
  const wait = scripted
    ? (call.fault?.retry_after ?? 1)
    : injected
      ? Math.max(empty, drawSeconds(config.behavior.chaosRetryAfter, random))
      : Math.max(empty, 1);
  const outcome = injected ? 'injected-429' : 'rate-limited';
  return result(taking, 429, outcome, wait, undefined, scripted ? { retryAfter: wait } : undefined);
}

/** The operation itself, once the bucket let the call through (or only shadow-limited it). */
function run(taking: Taking, outcome: 'allowed' | 'shadow-limited'): MaybePromise<ServiceResult> {
  const { context, config, call, now, instance, state, charged } = taking;
  if (!call.input.ok) throw new Error('unreachable: invalid input passed the refusal check');
  const operationContext = {
    config,
    directory: context.directory,
    otp: context.otp,
    random: context.random,
    now,
    onCode: context.onCode,
  };
  const operation = runOperation(
    call.input.input,
    call.merchantId ?? '',
    operationContext,
    instance,
  );
  // The bucket has taken its token (unless a store away let the call through without it): a
  // store that fails now says so in its 503.
  const answered = isPromise(operation)
    ? operation.catch((error: unknown) => {
        if (isStoreUnavailable(error) && outcome === 'allowed' && charged)
          error.bucketCharged = true;
        throw error;
      })
    : operation;
  return andThen(answered, (answer) =>
    'problem' in answer
      ? result(taking, answer.problem.status, outcome, reset(state), answer.problem)
      : result(taking, answer.status, outcome, reset(state), answer.body, undefined, answer.text),
  );
}

/** Whole seconds from `min` to `max`, each as likely. */
function drawSeconds(range: { min: number; max: number }, random: RandomSource): number {
  return range.min + Math.floor(random.next() * (range.max - range.min + 1));
}

/**
 * A result in one shape, written out: an object spread here cost more than the rest of the call
 * (V8 copies it on a slow path once the shapes it sees vary).
 */
function result(
  { bucket, level, state }: Taking,
  status: number,
  outcome: Outcome,
  resetSeconds: number,
  body: unknown,
  scripted?: ServiceResult['scripted'],
  text?: string,
): ServiceResult {
  return { status, outcome, bucket, level, state, resetSeconds, body, text, scripted };
}
