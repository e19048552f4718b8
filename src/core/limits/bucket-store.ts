import type { BucketState } from './token-bucket.js';

/** A stored bucket: its tokens plus the counters the dev API reports. */
export interface StoredBucket extends BucketState {
  allowed: number;
  rejected: number;
  /** Requests that would have been rejected, counted in shadow mode. */
  shadowRejected: number;
}

/** Options of {@link createBucketStore}. */
export interface BucketStoreOptions {
  /**
   * Most buckets kept at once. Past it the least recently used bucket is dropped; a dropped
   * bucket comes back full (and with zeroed counters) on its next request.
   * @default 1_000_000
   */
  maxBuckets?: number;
}

/** Holds bucket state by key, least recently used first. Holds state only: no rate logic. */
export interface BucketStore {
  get(key: string): StoredBucket | undefined;
  /**
   * Stores (or refreshes) a bucket and marks it most recently used; evicts past the maximum.
   * `isNew` says the key is not in the store, which saves a lookup.
   */
  set(key: string, bucket: StoredBucket, isNew?: boolean): void;
  delete(key: string): boolean;
  clear(): void;
  readonly size: number;
  /** Buckets dropped to respect the maximum since the store was made. */
  readonly evictions: number;
  entries(): IterableIterator<[string, StoredBucket]>;
  /**
   * Looks at up to `budget` buckets, continuing where the last sweep stopped, and drops those
   * `droppable` says may go. Amortised constant time per call.
   */
  sweep(droppable: (key: string, bucket: StoredBucket) => boolean, budget: number): void;
  setMaxBuckets(maxBuckets: number): void;
}

/** Creates an in-memory bucket store with least-recently-used eviction. */
export function createBucketStore(options: BucketStoreOptions = {}): BucketStore {
  const buckets = new Map<string, StoredBucket>();
  let maxBuckets = options.maxBuckets ?? 1_000_000;
  let evictions = 0;
  // The key stored last is already the most recently used: re-inserting it would change nothing.
  let newest: string | undefined;

  // Live Map iterators: they survive deletions and see re-inserted keys again at the end, so
  // the eviction cursor walks buckets least recently used first without rescanning the holes
  // that deletions leave at the front of the Map.
  let evictCursor: IterableIterator<string> | undefined;
  let sweepCursor: IterableIterator<[string, StoredBucket]> | undefined;

  function evict(): void {
    while (buckets.size > maxBuckets) {
      evictCursor ??= buckets.keys();
      const next = evictCursor.next();
      if (next.done) {
        evictCursor = undefined;
        continue;
      }
      buckets.delete(next.value);
      if (next.value === newest) newest = undefined;
      evictions++;
    }
  }

  return {
    get: (key) => buckets.get(key),
    set(key, bucket, isNew = false) {
      if (!isNew) {
        if (key === newest && buckets.get(key) === bucket) return;
        buckets.delete(key);
      }
      buckets.set(key, bucket);
      newest = key;
      if (buckets.size > maxBuckets) evict();
    },
    delete(key) {
      if (key === newest) newest = undefined;
      return buckets.delete(key);
    },
    clear() {
      newest = undefined;
      evictCursor = undefined;
      sweepCursor = undefined;
      buckets.clear();
    },
    get size() {
      return buckets.size;
    },
    get evictions() {
      return evictions;
    },
    entries: () => buckets.entries(),
    sweep(droppable, budget) {
      for (let seen = 0; seen < budget; seen++) {
        sweepCursor ??= buckets.entries();
        const next = sweepCursor.next();
        if (next.done) {
          sweepCursor = undefined;
          return;
        }
        const [key, bucket] = next.value;
        if (droppable(key, bucket)) {
          buckets.delete(key);
          if (key === newest) newest = undefined;
        }
      }
    },
    setMaxBuckets(value) {
      maxBuckets = value;
      evict();
    },
  };
}
