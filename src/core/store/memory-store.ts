import type { ResolvedConfig } from '../config/config.js';
import { levelOf } from '../limits/bucket-key.js';
import { createBucketStore, type BucketStore } from '../limits/bucket-store.js';
import { viewBucket } from '../limits/bucket-view.js';
import { createMemoryLedger } from '../limits/memory-ledger.js';
import { createOtpStore, type OtpStore } from '../signin/otp-codes.js';
import { pageOfBuckets, type EmulatorStore } from './emulator-store.js';

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
    listBuckets: (query, current, now) => pageOfBuckets(buckets.entries(), query, current, now),
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
      for (const key of buckets.keys()) if (levelOf(key) === 'client') client++;
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
