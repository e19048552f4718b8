import type { ResolvedConfig } from '../config/config.js';
import { levelOf } from './bucket-key.js';
import { decideTakeInto, type BucketLedger, type BucketWriteSlot } from './bucket-ledger.js';
import type { BucketStore, StoredBucket } from './bucket-store.js';
import { tokensAt } from './token-bucket.js';

/**
 * The buckets of one process, in its memory: the default, and the fast path (each take is
 * synchronous). `config` is read afresh (it changes live).
 */
export function createMemoryLedger(
  store: () => BucketStore,
  config: () => ResolvedConfig,
): BucketLedger {
  // The bucket of the take under way, read into and written from: a take makes no bucket object.
  const bucket: StoredBucket = {
    tokens: 0,
    updatedAt: 0,
    allowed: 0,
    rejected: 0,
    shadowRejected: 0,
  };
  const write: BucketWriteSlot = { tokens: 0, updatedAt: 0, count: undefined, wanted: false };
  return {
    take(request) {
      const buckets = store();
      const found = buckets.read(request.key, bucket);
      const taken = decideTakeInto(found ? bucket : undefined, request, write);
      if (!write.wanted) return taken;
      if (!found) {
        bucket.allowed = 0;
        bucket.rejected = 0;
        bucket.shadowRejected = 0;
      }
      bucket.tokens = write.tokens;
      bucket.updatedAt = write.updatedAt;
      if (write.count !== undefined) bucket[write.count]++;
      buckets.set(request.key, bucket, !found);
      if (!found) sweepFullBuckets(buckets, config(), request.now);
      return taken;
    },
  };
}

/**
 * A full bucket is the same as no bucket. Past `keepFullBuckets` buckets (below it they stay,
 * with their counters, for the dev API), each new bucket looks at two others, in turn, and drops
 * them if they have refilled: a flood of one-off caller_ids then holds only the buckets that are
 * still refilling, instead of growing to `maxBuckets`.
 */
function sweepFullBuckets(store: BucketStore, config: ResolvedConfig, now: number): void {
  if (store.size <= config.limits.keepFullBuckets) return;
  store.sweep((key, bucket) => {
    const limits = config.limits[levelOf(key)];
    return tokensAt(bucket, now, limits) >= limits.burst;
  }, 2);
}
