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
  /** Stores (or refreshes) a bucket and marks it most recently used; evicts past the maximum. */
  set(key: string, bucket: StoredBucket): void;
  delete(key: string): boolean;
  clear(): void;
  readonly size: number;
  /** Buckets dropped to respect the maximum since the store was made. */
  readonly evictions: number;
  entries(): IterableIterator<[string, StoredBucket]>;
  setMaxBuckets(maxBuckets: number): void;
}

/** Creates an in-memory bucket store with least-recently-used eviction. */
export function createBucketStore(options: BucketStoreOptions = {}): BucketStore {
  const buckets = new Map<string, StoredBucket>();
  let maxBuckets = options.maxBuckets ?? 1_000_000;
  let evictions = 0;
  // The key stored last is already the most recently used: re-inserting it would change nothing.
  let newest: string | undefined;

  function evict(): void {
    // A Map iterates in insertion order and `set` re-inserts on use, so the first key is the
    // least recently used one.
    while (buckets.size > maxBuckets) {
      const oldest = buckets.keys().next();
      if (oldest.done) return;
      buckets.delete(oldest.value);
      if (oldest.value === newest) newest = undefined;
      evictions++;
    }
  }

  return {
    get: (key) => buckets.get(key),
    set(key, bucket) {
      if (key === newest && buckets.get(key) === bucket) return;
      buckets.delete(key);
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
      buckets.clear();
    },
    get size() {
      return buckets.size;
    },
    get evictions() {
      return evictions;
    },
    entries: () => buckets.entries(),
    setMaxBuckets(value) {
      maxBuckets = value;
      evict();
    },
  };
}
