import { parseBucketKey, type Level } from './bucket-key.js';
import type { LevelLimits } from '../config/config.js';
import type { StoredBucket } from './bucket-store.js';
import { millisecondsUp } from './rate-limit-headers.js';
import { peekBucket } from './token-bucket.js';

/** A bucket as the dev API reports it. */
export interface BucketView {
  key: string;
  level: Level;
  client_id: string | null;
  caller_id: string | null;
  /** Tokens now, to two decimals. */
  tokens: number;
  remaining: number;
  burst: number;
  rate: string;
  allowed: number;
  rejected: number;
  shadow_rejected: number;
  last_seen: string;
  next_token_ms: number;
  full_in_ms: number;
}

/** Describes a stored bucket at `now` under the limits of its level. */
export function viewBucket(
  key: string,
  bucket: StoredBucket,
  limits: LevelLimits,
  now: number,
): BucketView {
  const parts = parseBucketKey(key);
  const state = peekBucket(bucket, now, limits);
  return {
    key,
    level: parts?.level ?? 'client',
    client_id: parts?.clientId ?? null,
    caller_id: parts?.callerId ?? null,
    tokens: Math.round(state.tokens * 100) / 100,
    remaining: state.remaining,
    burst: limits.burst,
    rate: limits.rateText,
    allowed: bucket.allowed,
    rejected: bucket.rejected,
    shadow_rejected: bucket.shadowRejected,
    last_seen: new Date(bucket.updatedAt).toISOString(),
    next_token_ms: millisecondsUp(state.nextTokenMs),
    full_in_ms: millisecondsUp(state.fullInMs),
  };
}

/** Orders of the bucket list. */
export type BucketSort = 'pressure' | 'recent' | 'key' | 'rejected';

/** A stored bucket with what sorting needs, before a view is made of it. */
export interface BucketCandidate {
  key: string;
  bucket: StoredBucket;
  /** Share of the burst left now, 0 to 1. */
  fill: number;
}

const ORDERS: Record<BucketSort, (a: BucketCandidate, b: BucketCandidate) => number> = {
  // The emptiest first, then the most rejected.
  pressure: (a, b) => a.fill - b.fill || b.bucket.rejected - a.bucket.rejected || compareKeys(a, b),
  recent: (a, b) => b.bucket.updatedAt - a.bucket.updatedAt || compareKeys(a, b),
  key: (a, b) => compareKeys(a, b),
  rejected: (a, b) => b.bucket.rejected - a.bucket.rejected || compareKeys(a, b),
};

function compareKeys(a: BucketCandidate, b: BucketCandidate): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/**
 * Keeps the first `limit` candidates in `sort` order without sorting them all: a screen asks for
 * the twenty emptiest of a million buckets twice a second. Returns a function to offer candidates
 * to and one to read the result.
 */
export function createBucketSelection(
  sort: BucketSort,
  limit: number,
): { offer(candidate: BucketCandidate): void; result(): BucketCandidate[] } {
  const compare = ORDERS[sort];
  const kept: BucketCandidate[] = [];
  // Past a few thousand, inserting in order costs more than one sort at the end.
  const sortAtEnd = limit > 2_000;
  return {
    offer(candidate) {
      if (sortAtEnd) {
        kept.push(candidate);
        return;
      }
      const last = kept[kept.length - 1];
      if (kept.length >= limit && last !== undefined && compare(candidate, last) >= 0) return;
      let low = 0;
      let high = kept.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (compare(kept[middle] as BucketCandidate, candidate) <= 0) low = middle + 1;
        else high = middle;
      }
      kept.splice(low, 0, candidate);
      if (kept.length > limit) kept.pop();
    },
    result: () => (sortAtEnd ? kept.sort(compare).slice(0, limit) : kept),
  };
}
