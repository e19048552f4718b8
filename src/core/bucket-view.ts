import { parseBucketKey, type Level } from './bucket-key.js';
import type { LevelLimits } from './config.js';
import type { StoredBucket } from './bucket-store.js';
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
    next_token_ms: Math.ceil(state.nextTokenMs),
    full_in_ms: Math.ceil(state.fullInMs),
  };
}

/** Orders of the bucket list. */
export type BucketSort = 'pressure' | 'recent' | 'key' | 'rejected';

/** Sorts views: `pressure` puts the emptiest first (then the most rejected), `recent` the newest. */
export function sortBuckets(views: BucketView[], sort: BucketSort): BucketView[] {
  const compare: Record<BucketSort, (a: BucketView, b: BucketView) => number> = {
    pressure: (a, b) =>
      a.tokens / a.burst - b.tokens / b.burst ||
      b.rejected - a.rejected ||
      a.key.localeCompare(b.key),
    recent: (a, b) => b.last_seen.localeCompare(a.last_seen) || a.key.localeCompare(b.key),
    key: (a, b) => a.key.localeCompare(b.key),
    rejected: (a, b) => b.rejected - a.rejected || a.key.localeCompare(b.key),
  };
  return views.sort(compare[sort]);
}
