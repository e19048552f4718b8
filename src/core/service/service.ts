import { bucketKey, levelOf, type Level } from '../limits/bucket-key.js';
import type { BucketStore, StoredBucket } from '../limits/bucket-store.js';
import type { Operation, ResolvedConfig } from '../config/config.js';
import type { Directory } from '../signin/directory.js';
import type { Fault } from '../admin/faults.js';
import { checkMerchant, runOperation } from './operations.js';
import { createProblem } from './problems.js';
import type { OtpCode, OtpStore } from '../signin/otp-codes.js';
import type { RandomSource } from '../time/random.js';
import { secondsUp } from '../limits/rate-limit-headers.js';
import type { Outcome } from '../admin/records.js';
import type { InputResult } from './request-input.js';
import { takeTokens, tokensAt, type BucketDecision } from '../limits/token-bucket.js';

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
  /** Set when a scripted fault made this answer: its Retry-After, if it has one. */
  scripted?: { retryAfter: number | undefined };
}

/** The state a call runs against; `config` is read afresh on every call (it changes live). */
export interface ServiceContext {
  readonly config: ResolvedConfig;
  readonly store: BucketStore;
  readonly directory: Directory;
  readonly otp: OtpStore;
  readonly random: RandomSource;
  onCode(code: OtpCode): void;
}

/**
 * Runs an authenticated call at `now`: the bucket first (an empty one answers 429), then
 * validation and the merchant (a refused call takes no token), then the operation. Renders no
 * HTTP, so the simulator can drive it directly.
 */
export function executeCall(
  context: ServiceContext,
  call: ServiceCall,
  now: number,
  instance: string,
): ServiceResult {
  const { config, store, random } = context;
  const { operation, clientId, callerId } = call;
  const bucket = bucketKey(clientId, callerId, config.limits.callerScope);
  const level: Level = callerId === undefined ? 'client' : 'caller';
  const limits = config.limits[level];
  const stored = store.get(bucket);
  const decision = takeTokens(stored, now, limits, config.limits.cost[operation]);

  const { fault } = call;
  if (fault?.status === 500 || fault?.status === 503) {
    const state = takeTokens(stored, now, limits, 0);
    const detail = `a ${fault.status} scripted by failNext (POST /__uas/faults); the request did not run and the ${level} bucket was not charged`;
    return {
      status: fault.status,
      outcome: 'injected-fault',
      bucket,
      level,
      state,
      resetSeconds: secondsUp(state.nextTokenMs),
      body: createProblem(fault.status === 500 ? 'internal-error' : 'service-unavailable', detail, {
        instance,
      }),
      scripted: { retryAfter: fault.retry_after ?? undefined },
    };
  }
  const scripted = fault?.status === 429;
  const injected = scripted || (config.behavior.chaos > 0 && random.next() < config.behavior.chaos);
  if (injected || (!decision.allowed && !config.behavior.shadow)) {
    const state = injected ? takeTokens(stored, now, limits, 0) : decision;
    keep(store, bucket, stored, state.tokens, now).rejected++;
    // An injected 429 on a bucket that had a token asks for a one-second pause.
    const wait = scripted
      ? (fault.retry_after ?? 1)
      : decision.allowed
        ? 1
        : secondsUp(decision.retryAfterMs);
    const outcome = injected ? 'injected-429' : 'rate-limited';
    return {
      status: 429,
      outcome,
      bucket,
      level,
      state,
      resetSeconds: wait,
      body: undefined,
      ...(scripted ? { scripted: { retryAfter: wait } } : {}),
    };
  }
  const shadowLimited = !decision.allowed;

  const { input } = call;
  const refusal = !input.ok
    ? input.problem
    : call.merchantId !== undefined
      ? checkMerchant(call.merchantId, clientId, context.directory, instance)
      : undefined;
  if (refusal !== undefined) {
    // A refused request changes no state unless the config says invalid requests count.
    const counted = config.limits.countInvalid && decision.allowed;
    const state = counted
      ? commit(context, bucket, stored, decision, now)
      : takeTokens(stored, now, limits, 0);
    return {
      status: refusal.status,
      outcome: 'invalid',
      bucket,
      level,
      state,
      resetSeconds: secondsUp(state.nextTokenMs),
      body: refusal,
    };
  }
  if (!input.ok) throw new Error('unreachable: invalid input passed the refusal check');

  const operationContext = {
    config,
    directory: context.directory,
    otp: context.otp,
    random,
    now,
    onCode: context.onCode,
  };
  const result = runOperation(input.input, call.merchantId ?? '', operationContext, instance);
  if (shadowLimited) keep(store, bucket, stored, decision.tokens, now).shadowRejected++;
  else commit(context, bucket, stored, decision, now);
  const resetSeconds = secondsUp(decision.nextTokenMs);
  const outcome = shadowLimited ? 'shadow-limited' : 'allowed';
  const [status, body] =
    'problem' in result ? [result.problem.status, result.problem] : [result.status, result.body];
  return { status, outcome, bucket, level, state: decision, resetSeconds, body };
}

/** Stores the bucket's state at `now` without taking a token; returns the stored entry. */
function keep(
  store: BucketStore,
  key: string,
  stored: StoredBucket | undefined,
  tokens: number,
  now: number,
): StoredBucket {
  const bucket = stored ?? { tokens, updatedAt: now, allowed: 0, rejected: 0, shadowRejected: 0 };
  bucket.tokens = tokens;
  bucket.updatedAt = now;
  store.set(key, bucket, stored === undefined);
  return bucket;
}

/** Stores the tokens left after an allowed call. */
function commit(
  context: ServiceContext,
  key: string,
  stored: StoredBucket | undefined,
  decision: BucketDecision,
  now: number,
): BucketDecision {
  const bucket = stored ?? {
    tokens: 0,
    updatedAt: now,
    allowed: 0,
    rejected: 0,
    shadowRejected: 0,
  };
  bucket.tokens = decision.tokens;
  bucket.updatedAt = now;
  bucket.allowed++;
  context.store.set(key, bucket, stored === undefined);
  if (stored === undefined) sweepFullBuckets(context, now);
  return decision;
}

/**
 * A full bucket is the same as no bucket. Past `keepFullBuckets` buckets (below it they stay,
 * with their counters, for the dev API), each new bucket looks at two others, in turn, and drops
 * them if they have refilled: a flood of one-off caller_ids then holds only the buckets that are
 * still refilling, instead of growing to `maxBuckets`.
 */
function sweepFullBuckets({ store, config }: ServiceContext, now: number): void {
  if (store.size <= config.limits.keepFullBuckets) return;
  store.sweep((key, bucket) => {
    const limits = config.limits[levelOf(key)];
    return tokensAt(bucket, now, limits) >= limits.burst;
  }, 2);
}
