import type { MaybePromise } from '../async/maybe-promise.js';
import type { Level } from './bucket-key.js';
import { writtenAt } from './past-policies.js';
import {
  takeTokens,
  type BucketDecision,
  type BucketPolicy,
  type BucketState,
} from './token-bucket.js';

/**
 * What a call asks of its bucket, in one atomic step:
 * - `peek`: the state, nothing written (a scripted 500 or 503);
 * - `inject`: a 429 that charges nothing (chaos, a scripted 429), counted as rejected;
 * - `decide`: the bucket decides. Empty: a 429 (unless `shadow`). Otherwise a `valid` call takes
 *   `cost` tokens; an invalid one takes them only with `countInvalid`.
 */
export interface BucketTake {
  key: string;
  level: Level;
  now: number;
  policy: BucketPolicy;
  cost: number;
  mode: 'peek' | 'inject' | 'decide';
  shadow: boolean;
  valid: boolean;
  countInvalid: boolean;
}

/** What the bucket did. */
export type BucketVerdict =
  'peeked' | 'injected' | 'rejected' | 'allowed' | 'shadow-limited' | 'refused';

/** The answer of a take: what happened, and the bucket's state after it. */
export interface BucketTaken {
  verdict: BucketVerdict;
  /** The bucket after the take (`retryAfterMs` set when it was too empty for the call). */
  state: BucketDecision;
}

/** What a take writes: the tokens at a time, and which counter goes up. */
export interface BucketWrite {
  tokens: number;
  updatedAt: number;
  count: 'allowed' | 'rejected' | 'shadowRejected' | undefined;
}

/** Where buckets live: in this process (a Map), or shared by instances (Redis). */
export interface BucketLedger {
  /** Takes from a bucket in one atomic step. */
  take(request: BucketTake): MaybePromise<BucketTaken>;
}

/**
 * The decision of a take over a stored bucket (undefined: a full one), and what to store after
 * it (undefined: nothing). Pure: the memory ledger applies it, and the Redis ledger's script
 * does the same arithmetic (a test holds the two to the same answers).
 */
export function decideTake(
  stored: BucketState | undefined,
  request: BucketTake,
): { taken: BucketTaken; write: BucketWrite | undefined } {
  const { now, policy, cost, mode } = request;
  const at = writtenAt(now, policy);
  const decision = takeTokens(stored, now, policy, cost);
  if (mode === 'peek')
    return { taken: { verdict: 'peeked', state: unchanged(stored, request) }, write: undefined };
  if (mode === 'inject') {
    const state = unchanged(stored, request);
    return {
      taken: { verdict: 'injected', state: { ...state, retryAfterMs: decision.retryAfterMs } },
      write: { tokens: state.tokens, updatedAt: at, count: 'rejected' },
    };
  }
  if (!decision.allowed && !request.shadow)
    return {
      taken: { verdict: 'rejected', state: decision },
      write: { tokens: decision.tokens, updatedAt: at, count: 'rejected' },
    };
  if (!request.valid) {
    if (request.countInvalid && decision.allowed)
      return {
        taken: { verdict: 'refused', state: decision },
        write: { tokens: decision.tokens, updatedAt: at, count: 'allowed' },
      };
    return { taken: { verdict: 'refused', state: unchanged(stored, request) }, write: undefined };
  }
  if (!decision.allowed)
    return {
      taken: { verdict: 'shadow-limited', state: decision },
      write: { tokens: decision.tokens, updatedAt: at, count: 'shadowRejected' },
    };
  return {
    taken: { verdict: 'allowed', state: decision },
    write: { tokens: decision.tokens, updatedAt: at, count: 'allowed' },
  };
}

/** The bucket as it stands at the take's time, nothing taken (a function, not a closure per take). */
function unchanged(stored: BucketState | undefined, { now, policy }: BucketTake): BucketDecision {
  return takeTokens(stored, now, policy, 0);
}
