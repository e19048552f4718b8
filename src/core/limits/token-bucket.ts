import type { BucketPolicy } from '../config/bucket-policy.js';

export type { BucketPolicy, PastPolicy } from '../config/bucket-policy.js';

/** What a bucket stores: its tokens at `updatedAt`. Refill is computed lazily from elapsed time. */
export interface BucketState {
  tokens: number;
  updatedAt: number;
}

/** The outcome of asking a bucket for `cost` tokens. A value, never an exception. */
export interface BucketDecision {
  allowed: boolean;
  /** Tokens in the bucket after this request (unchanged when rejected). */
  tokens: number;
  /** Whole tokens left, as reported to clients. */
  remaining: number;
  /**
   * Milliseconds until `cost` tokens are available again (counted from the bucket's own time when
   * a manual clock was set back before it); 0 when allowed. So are the two below.
   */
  retryAfterMs: number;
  /** Milliseconds until the next whole token is added; 0 when the bucket is full. */
  nextTokenMs: number;
  /** Milliseconds until the bucket is full again. */
  fullInMs: number;
}

// Refill is floating point; without a small tolerance a client that waits exactly the advertised
// time could find 0.9999999 tokens.
const EPSILON = 1e-9;

/**
 * Tokens in a bucket at `now`, refilled from its last update and capped at the burst. Across a
 * live change, each stretch refills at the policy then in force, and the tokens at the change
 * are capped at the new burst. Stored tokens below none count as none, as the Redis script reads
 * them too (something other than uas may have written them): every wait stays finite.
 */
export function tokensAt(
  state: BucketState | undefined,
  now: number,
  policy: BucketPolicy,
): number {
  if (state === undefined) return policy.burst;
  let tokens = state.tokens > 0 ? state.tokens : 0;
  let from = state.updatedAt;
  const past = policy.past;
  if (past !== undefined)
    for (const era of past) {
      if (!(era.until > from)) continue;
      const to = era.until < now ? era.until : now;
      tokens = refill(tokens, from, to, era);
      from = to;
    }
  return refill(tokens, from, now, policy);
}

/** Tokens from `from` to `to` at one policy, capped at its burst (the Lua script does the same). */
function refill(tokens: number, from: number, to: number, policy: BucketPolicy): number {
  const elapsed = to > from ? to - from : 0;
  const refilled = tokens + elapsed * policy.refillPerMs;
  return refilled > policy.burst ? policy.burst : refilled;
}

/**
 * Asks the bucket for `cost` tokens at `now`. Pure: returns the decision and the tokens the bucket
 * would hold after it; the caller decides whether to store them. An absent bucket is a full one.
 */
export function takeTokens(
  state: BucketState | undefined,
  now: number,
  policy: BucketPolicy,
  cost: number,
): BucketDecision {
  const available = tokensAt(state, now, policy);
  const allowed = available + EPSILON >= cost;
  const tokens = allowed ? Math.max(0, available - cost) : available;
  const ahead = aheadOf(state, now);
  const retryAfterMs = allowed ? 0 : ahead + (cost - available) / policy.refillPerMs;
  return describe(tokens, policy, allowed, retryAfterMs, ahead);
}

/** The state of a bucket at `now` without taking anything from it. */
export function peekBucket(
  state: BucketState | undefined,
  now: number,
  policy: BucketPolicy,
): BucketDecision {
  return describe(tokensAt(state, now, policy), policy, true, 0, aheadOf(state, now));
}

/**
 * Milliseconds the bucket's time is past `now`: a manual clock set back leaves a bucket at the
 * later time it was last taken at, and it refills only from there, so every wait starts there.
 */
function aheadOf(state: BucketState | undefined, now: number): number {
  if (state === undefined || !(state.updatedAt > now)) return 0;
  const ahead = state.updatedAt - now;
  return ahead < MAX_AHEAD_MS ? ahead : MAX_AHEAD_MS;
}

/** The most {@link aheadOf} counts (about 31 years), so that every wait stays finite. */
export const MAX_AHEAD_MS = 1e12;

function describe(
  tokens: number,
  policy: BucketPolicy,
  allowed: boolean,
  retryAfterMs: number,
  aheadMs: number,
): BucketDecision {
  const remaining = Math.floor(tokens + EPSILON);
  const full = tokens + EPSILON >= policy.burst;
  const nextTokenMs = full
    ? 0
    : aheadMs + (Math.min(remaining + 1, policy.burst) - tokens) / policy.refillPerMs;
  const fullInMs = full ? 0 : aheadMs + (policy.burst - tokens) / policy.refillPerMs;
  return {
    allowed,
    tokens,
    remaining,
    retryAfterMs,
    nextTokenMs: Math.max(0, nextTokenMs),
    fullInMs,
  };
}
