import { bucketKey, type Level } from '../limits/bucket-key.js';
import type { BucketLedger } from '../limits/bucket-ledger.js';
import { andThen, type MaybePromise } from '../async/maybe-promise.js';
import type { Operation, ResolvedConfig } from '../config/config.js';
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
  const scripted429 = fault?.status === 429;
  const injected =
    scripted429 ||
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
  return andThen(taken, ({ verdict, state }): MaybePromise<ServiceResult> => {
    const result = (
      status: number,
      outcome: Outcome,
      resetSeconds: number,
      body: unknown,
      scripted?: ServiceResult['scripted'],
      text?: string,
    ) => serviceResult(bucket, level, state, status, outcome, resetSeconds, body, scripted, text);
    switch (verdict) {
      case 'peeked': {
        const status = fault?.status === 500 ? 500 : 503;
        const detail = `a ${status} scripted by failNext (POST /__uas/faults); the request did not run and the ${level} bucket was not charged`;
        return result(
          status,
          'injected-fault',
          secondsUp(state.nextTokenMs),
          createProblem(status === 500 ? 'internal-error' : 'service-unavailable', detail, {
            instance,
          }),
          { retryAfter: fault?.retry_after ?? undefined },
        );
      }
      case 'injected':
      case 'rejected': {
        // A 429 chaos injects asks for a wait drawn in behavior.chaosRetryAfter (never less than
        // the bucket's own), so a client that waits a fixed second instead of reading
        // Retry-After is caught resending too early.
        const empty = state.retryAfterMs > 0 ? secondsUp(state.retryAfterMs) : 0;
        const wait = scripted429
          ? (fault?.retry_after ?? 1)
          : verdict === 'injected'
            ? Math.max(empty, drawSeconds(config.behavior.chaosRetryAfter, random))
            : Math.max(empty, 1);
        return result(
          429,
          verdict === 'injected' ? 'injected-429' : 'rate-limited',
          wait,
          undefined,
          scripted429 ? { retryAfter: wait } : undefined,
        );
      }
      case 'refused':
        return result(
          (refusal as Problem).status,
          'invalid',
          secondsUp(state.nextTokenMs),
          refusal,
        );
      case 'allowed':
      case 'shadow-limited': {
        if (!input.ok) throw new Error('unreachable: invalid input passed the refusal check');
        const operationContext = {
          config,
          directory: context.directory,
          otp: context.otp,
          random,
          now,
          onCode: context.onCode,
        };
        const answered = runOperation(
          input.input,
          call.merchantId ?? '',
          operationContext,
          instance,
        );
        const outcome = verdict === 'allowed' ? 'allowed' : 'shadow-limited';
        const reset = secondsUp(state.nextTokenMs);
        return andThen(answered, (answer) =>
          'problem' in answer
            ? result(answer.problem.status, outcome, reset, answer.problem)
            : result(answer.status, outcome, reset, answer.body, undefined, answer.text),
        );
      }
    }
  });
}

/** Whole seconds from `min` to `max`, each as likely. */
function drawSeconds(range: { min: number; max: number }, random: RandomSource): number {
  return range.min + Math.floor(random.next() * (range.max - range.min + 1));
}

/**
 * A result in one shape, written out: an object spread here cost more than the rest of the call
 * (V8 copies it on a slow path once the shapes it sees vary).
 */
function serviceResult(
  bucket: string,
  level: Level,
  state: BucketDecision,
  status: number,
  outcome: Outcome,
  resetSeconds: number,
  body: unknown,
  scripted: ServiceResult['scripted'],
  text: string | undefined,
): ServiceResult {
  return { status, outcome, bucket, level, state, resetSeconds, body, text, scripted };
}
