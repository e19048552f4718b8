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
  'peeked' | 'injected' | 'rejected' | 'allowed' | 'shadow-limited' | 'refused' | 'shadow-refused';

/** The answer of a take: what happened, and the bucket's state after it. */
export interface BucketTaken {
  verdict: BucketVerdict;
  /** The bucket after the take (`retryAfterMs` set when it was too empty for the call). */
  state: BucketDecision;
  /** Let through without asking the bucket (a shared store away, `--on-store-error open`). */
  failedOpen?: true;
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
  const slot: BucketWriteSlot = { tokens: 0, updatedAt: 0, count: undefined, wanted: false };
  const taken = decideTakeInto(stored, request, slot);
  const { tokens, updatedAt, count } = slot;
  return { taken, write: slot.wanted ? { tokens, updatedAt, count } : undefined };
}

/** A write a take fills in, and whether it wants one (`wanted`). */
export interface BucketWriteSlot extends BucketWrite {
  wanted: boolean;
}

/**
 * {@link decideTake} writing what to store into `slot` (`slot.wanted` false: nothing), so that a
 * take of the memory ledger makes no object but its answer.
 */
export function decideTakeInto(
  stored: BucketState | undefined,
  request: BucketTake,
  slot: BucketWriteSlot,
  now = request.now,
): BucketTaken {
  const { policy, cost, mode } = request;
  // Never dated back (a take on a manual time another instance has moved past): the next take
  // would refill that time a second time. The Redis script does the same.
  const written = writtenAt(now, policy);
  const at = stored !== undefined && stored.updatedAt > written ? stored.updatedAt : written;
  const decision = takeTokens(stored, now, policy, cost);
  slot.wanted = false;
  if (mode === 'peek') return { verdict: 'peeked', state: unchanged(stored, now, policy) };
  if (mode === 'inject') {
    const state = unchanged(stored, now, policy);
    fill(slot, state.tokens, at, 'rejected');
    return { verdict: 'injected', state: { ...state, retryAfterMs: decision.retryAfterMs } };
  }
  if (!decision.allowed && !request.shadow) {
    fill(slot, decision.tokens, at, 'rejected');
    return { verdict: 'rejected', state: decision };
  }
  if (!request.valid) {
    // In shadow mode, an invalid call the empty bucket would have refused first (a 429 without
    // shadow) is counted as shadow-rejected, and refused for its input.
    if (!decision.allowed) {
      fill(slot, decision.tokens, at, 'shadowRejected');
      return { verdict: 'shadow-refused', state: decision };
    }
    if (!request.countInvalid) return { verdict: 'refused', state: unchanged(stored, now, policy) };
    fill(slot, decision.tokens, at, 'allowed');
    return { verdict: 'refused', state: decision };
  }
  fill(slot, decision.tokens, at, decision.allowed ? 'allowed' : 'shadowRejected');
  return { verdict: decision.allowed ? 'allowed' : 'shadow-limited', state: decision };
}

function fill(
  slot: BucketWriteSlot,
  tokens: number,
  updatedAt: number,
  count: BucketWrite['count'],
): void {
  slot.wanted = true;
  slot.tokens = tokens;
  slot.updatedAt = updatedAt;
  slot.count = count;
}

/** The bucket as it stands at `now`, nothing taken (a function, not a closure per take). */
function unchanged(
  stored: BucketState | undefined,
  now: number,
  policy: BucketPolicy,
): BucketDecision {
  return takeTokens(stored, now, policy, 0);
}
