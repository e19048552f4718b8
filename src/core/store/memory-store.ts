import type { ResolvedConfig } from '../config/config.js';
import { levelOf, parseBucketKey } from '../limits/bucket-key.js';
import { createBucketStore, type BucketStore } from '../limits/bucket-store.js';
import { createBucketSelection, viewBucket } from '../limits/bucket-view.js';
import { createMemoryLedger } from '../limits/memory-ledger.js';
import { tokensAt } from '../limits/token-bucket.js';
import { createOtpStore, type OtpStore } from '../signin/otp-codes.js';
import type { EmulatorStore } from './emulator-store.js';

/** The memory store, whose every answer is synchronous. */
export interface MemoryStore extends EmulatorStore {
  readonly kind: 'memory';
  readonly codes: OtpStore<'sync'>;
}

/**
 * Buckets and codes in this process's memory: the default store, and the fast path. It follows
 * the config given to `useConfig` (it changes live).
 */
export function createMemoryStore(initialConfig: ResolvedConfig): MemoryStore {
  let config = initialConfig;
  let buckets: BucketStore = createBucketStore({ maxBuckets: config.limits.maxBuckets });
  let codes = createOtpStore();
  const ledger = createMemoryLedger(
    () => buckets,
    () => config,
  );
  return {
    kind: 'memory',
    ledger,
    get codes() {
      return codes;
    },
    listBuckets(query, current, now) {
      const offset = query.offset ?? 0;
      const limit = query.limit ?? 100;
      const selection = createBucketSelection(query.sort ?? 'pressure', offset + limit);
      let total = 0;
      for (const [key, bucket] of buckets.entries()) {
        const level = levelOf(key);
        if (query.level !== undefined && level !== query.level) continue;
        if (query.search !== undefined && !key.includes(query.search)) continue;
        if (query.clientId !== undefined && parseBucketKey(key)?.clientId !== query.clientId)
          continue;
        total++;
        const limits = current.limits[level];
        selection.offer({ key, bucket, fill: tokensAt(bucket, now, limits) / limits.burst });
      }
      const page = selection
        .result()
        .slice(offset)
        .map(({ key, bucket }) => viewBucket(key, bucket, current.limits[levelOf(key)], now));
      return { total, buckets: page };
    },
    getBucket(key, current, now) {
      const bucket = buckets.get(key);
      return bucket === undefined
        ? undefined
        : viewBucket(key, bucket, current.limits[levelOf(key)], now);
    },
    resetBuckets(key) {
      if (key !== undefined) return buckets.delete(key);
      buckets.clear();
      return true;
    },
    counts() {
      let client = 0;
      for (const [key] of buckets.entries()) if (levelOf(key) === 'client') client++;
      return { client, caller: buckets.size - client, evictions: buckets.evictions };
    },
    useConfig(next) {
      config = next;
      buckets.setMaxBuckets(next.limits.maxBuckets);
    },
    clear() {
      buckets = createBucketStore({ maxBuckets: config.limits.maxBuckets });
      codes = createOtpStore();
    },
  };
}
