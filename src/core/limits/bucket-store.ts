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

/**
 * Holds bucket state by key, least recently used first. Holds state only: no rate logic. A
 * bucket read is a copy: changing it changes nothing until it is {@link BucketStore.set}.
 */
export interface BucketStore {
  /** A copy of the bucket of `key`, or undefined. */
  get(key: string): StoredBucket | undefined;
  /**
   * Copies the bucket of `key` into `into` and says whether there is one (`into` is then left as
   * it was): the hot path's read, which makes no object.
   */
  read(key: string, into: StoredBucket): boolean;
  /**
   * Stores (or refreshes) a bucket, copied, and marks it most recently used; evicts past the
   * maximum. `isNew` says the key is not in the store, which saves a lookup.
   */
  set(key: string, bucket: StoredBucket, isNew?: boolean): void;
  delete(key: string): boolean;
  clear(): void;
  readonly size: number;
  /** Buckets dropped to respect the maximum since the store was made. */
  readonly evictions: number;
  /** Every bucket (a copy of each), least recently used first. */
  entries(): IterableIterator<[string, StoredBucket]>;
  /** Every bucket's key, least recently used first. */
  keys(): IterableIterator<string>;
  /**
   * Looks at up to `budget` buckets, continuing where the last sweep stopped, and drops those
   * `droppable` says may go (the bucket it is given is valid only during the call). Amortised
   * constant time per call.
   */
  sweep(droppable: (key: string, bucket: StoredBucket) => boolean, budget: number): void;
  setMaxBuckets(maxBuckets: number): void;
}

/** Slots held before the first growth. */
const FIRST_SLOTS = 1024;

/**
 * The numbers of the buckets, one slot each, in typed arrays (no object and no boxed number per
 * bucket: a million buckets cost a Map entry, a key and 40 bytes each). Counters are doubles,
 * exact to 2^53.
 */
class Slots {
  tokens = new Float64Array(FIRST_SLOTS);
  updatedAt = new Float64Array(FIRST_SLOTS);
  allowed = new Float64Array(FIRST_SLOTS);
  rejected = new Float64Array(FIRST_SLOTS);
  shadowRejected = new Float64Array(FIRST_SLOTS);
  private free: number[] = [];
  private used = 0;

  take(): number {
    const reused = this.free.pop();
    if (reused !== undefined) return reused;
    if (this.used === this.tokens.length) this.grow();
    return this.used++;
  }

  give(slot: number): void {
    this.free.push(slot);
  }

  write(slot: number, bucket: StoredBucket): void {
    this.tokens[slot] = bucket.tokens;
    this.updatedAt[slot] = bucket.updatedAt;
    this.allowed[slot] = bucket.allowed;
    this.rejected[slot] = bucket.rejected;
    this.shadowRejected[slot] = bucket.shadowRejected;
  }

  readInto(slot: number, into: StoredBucket): StoredBucket {
    into.tokens = this.tokens[slot] as number;
    into.updatedAt = this.updatedAt[slot] as number;
    into.allowed = this.allowed[slot] as number;
    into.rejected = this.rejected[slot] as number;
    into.shadowRejected = this.shadowRejected[slot] as number;
    return into;
  }

  private grow(): void {
    const size = this.tokens.length * 2;
    const grown = (from: Float64Array) => {
      const to = new Float64Array(size);
      to.set(from);
      return to;
    };
    this.tokens = grown(this.tokens);
    this.updatedAt = grown(this.updatedAt);
    this.allowed = grown(this.allowed);
    this.rejected = grown(this.rejected);
    this.shadowRejected = grown(this.shadowRejected);
  }
}

const emptyBucket = (): StoredBucket => ({
  tokens: 0,
  updatedAt: 0,
  allowed: 0,
  rejected: 0,
  shadowRejected: 0,
});

/** Creates an in-memory bucket store with least-recently-used eviction. */
export function createBucketStore(options: BucketStoreOptions = {}): BucketStore {
  return new LruBuckets(options.maxBuckets ?? 1_000_000);
}

/** The buckets of {@link createBucketStore}: each key's slot in a Map kept in order of use. */
class LruBuckets implements BucketStore {
  // Each key's slot; the Map's order is the order of use, least recent first.
  private index = new Map<string, number>();
  private slots = new Slots();
  private evicted = 0;
  // The key stored last is already the most recently used: re-inserting it would change nothing.
  private newest: string | undefined;
  private readonly scratch = emptyBucket();
  // Live Map iterators: they survive deletions and see re-inserted keys again at the end, so
  // the eviction cursor walks buckets least recently used first without rescanning the holes
  // that deletions leave at the front of the Map.
  private evictCursor: IterableIterator<string> | undefined;
  private sweepCursor: IterableIterator<[string, number]> | undefined;

  constructor(private maxBuckets: number) {}

  get size(): number {
    return this.index.size;
  }

  get evictions(): number {
    return this.evicted;
  }

  get(key: string): StoredBucket | undefined {
    const slot = this.index.get(key);
    return slot === undefined ? undefined : this.slots.readInto(slot, emptyBucket());
  }

  read(key: string, into: StoredBucket): boolean {
    const slot = this.index.get(key);
    if (slot === undefined) return false;
    this.slots.readInto(slot, into);
    return true;
  }

  set(key: string, bucket: StoredBucket, isNew = false): void {
    let slot = isNew ? undefined : this.index.get(key);
    if (slot === undefined) slot = this.slots.take();
    else if (key === this.newest) return this.slots.write(slot, bucket);
    else this.index.delete(key);
    this.slots.write(slot, bucket);
    this.index.set(key, slot);
    this.newest = key;
    if (this.index.size > this.maxBuckets) this.evict();
  }

  delete(key: string): boolean {
    const slot = this.index.get(key);
    if (slot === undefined) return false;
    this.drop(key, slot);
    return true;
  }

  clear(): void {
    this.newest = undefined;
    this.evictCursor = undefined;
    this.sweepCursor = undefined;
    this.index = new Map();
    this.slots = new Slots();
  }

  *entries(): IterableIterator<[string, StoredBucket]> {
    for (const [key, slot] of this.index) yield [key, this.slots.readInto(slot, emptyBucket())];
  }

  keys(): IterableIterator<string> {
    return this.index.keys();
  }

  sweep(droppable: (key: string, bucket: StoredBucket) => boolean, budget: number): void {
    for (let seen = 0; seen < budget; seen++) {
      this.sweepCursor ??= this.index.entries();
      const next = this.sweepCursor.next();
      if (next.done) {
        this.sweepCursor = undefined;
        return;
      }
      const [key, slot] = next.value;
      if (droppable(key, this.slots.readInto(slot, this.scratch))) this.drop(key, slot);
    }
  }

  setMaxBuckets(maxBuckets: number): void {
    this.maxBuckets = maxBuckets;
    this.evict();
  }

  private drop(key: string, slot: number): void {
    this.index.delete(key);
    this.slots.give(slot);
    if (key === this.newest) this.newest = undefined;
  }

  private evict(): void {
    while (this.index.size > this.maxBuckets) {
      this.evictCursor ??= this.index.keys();
      const next = this.evictCursor.next();
      if (next.done) {
        this.evictCursor = undefined;
        continue;
      }
      this.drop(next.value, this.index.get(next.value) as number);
      this.evicted++;
    }
  }
}
