import type { ResolvedConfig } from '../config/config.js';
import type { BucketLedger } from '../limits/bucket-ledger.js';
import type { Level } from '../limits/bucket-key.js';
import { levelOf, parseBucketKey } from '../limits/bucket-key.js';
import type { StoredBucket } from '../limits/bucket-store.js';
import {
  createBucketSelection,
  viewBucket,
  type BucketSort,
  type BucketView,
} from '../limits/bucket-view.js';
import { tokensAt } from '../limits/token-bucket.js';
import type { OtpStore } from '../signin/otp-codes.js';
import type { EmulatorEvent } from '../records/records.js';
import type { MaybePromise } from '../async/maybe-promise.js';

/** Which buckets to list, and one page of them. */
export interface BucketQuery {
  level?: Level | undefined;
  clientId?: string | undefined;
  /** Keeps buckets whose key contains this text. */
  search?: string | undefined;
  sort?: BucketSort | undefined;
  /**
   * Keeps buckets whose key sorts after this one (in code-unit order, as `sort: 'key'` lists
   * them): the cursor of a walk through every bucket, which buckets created or dropped meanwhile
   * do not shift.
   */
  after?: string | undefined;
  /** Buckets skipped, in sort order, before the page starts. @default 0 */
  offset?: number | undefined;
  /** @default 100 */
  limit?: number | undefined;
}

/** How many buckets a store holds, for the metrics. */
export interface BucketCounts {
  client: number;
  caller: number;
  /** Buckets dropped to keep memory bounded (0 where the store expires them itself). */
  evictions: number;
}

/**
 * The state an emulator shares with other instances, when it does: buckets and one-time codes.
 * The memory store is one process's (the default, synchronous); a shared one (Redis) is an
 * adapter outside the core, whose every answer may come later. Every bucket decision is one
 * atomic step of the ledger, wherever the buckets are.
 */
export interface EmulatorStore {
  readonly kind: 'memory' | 'shared';
  readonly ledger: BucketLedger;
  readonly codes: OtpStore;
  /**
   * Whether the store answered its last call, and the bucket decisions it let through while it
   * could not (failing open); undefined for the memory store, which cannot fail.
   */
  health?(): { up: boolean; failedOpen: number };
  /**
   * What a shared store says of itself when asked: `up`; `down` (it does not answer); or
   * `degraded`: it answers, but keys of its own hold what it cannot read (written by something
   * other than uas), which a reset of the emulator repairs. Undefined for the memory store.
   */
  check?(): Promise<'up' | 'down' | 'degraded'>;
  /** How instances sharing the store hear each other; undefined for the memory store. */
  readonly channel?: StoreChannel | undefined;
  /** One page of buckets in `sort` order, and how many match. */
  listBuckets(
    query: BucketQuery,
    config: ResolvedConfig,
    now: number,
  ): MaybePromise<{ total: number; buckets: BucketView[] }>;
  getBucket(key: string, config: ResolvedConfig, now: number): MaybePromise<BucketView | undefined>;
  /** Resets one bucket (true when it existed) or, without a key, every bucket. */
  resetBuckets(key?: string): MaybePromise<boolean>;
  counts(): MaybePromise<BucketCounts>;
  /**
   * The store's time, when it keeps one of its own (Redis's clock, or the manual clock it shares):
   * a live change of limits is dated by it, as bucket decisions are. Undefined: the emulator's clock.
   */
  now?(): MaybePromise<number>;
  /** A new config: what depends on it (the memory store's cap on buckets) follows. */
  useConfig(config: ResolvedConfig): void;
  /** Forgets every bucket and code (a reset of the emulator). */
  clear(): MaybePromise<void>;
}

/** What instances sharing a store tell each other, so that they behave as one emulator. */
export type SharedChange =
  /**
   * The live config changed (`PATCH /__uas/config`): its live parts (`limits`, `behavior`,
   * `otp`) whole, in config-file form, and the limits each level followed before, up to the
   * moment of each change (`PastPolicies`), so that every instance settles a bucket alike.
   * Clients and their tokens never travel.
   */
  | { type: 'config'; live: unknown; past?: unknown }
  /**
   * Users were added live. `own`: made by this instance, kept after a reset it heard while
   * keeping it, and applied only as read back from the store: told to every reader then.
   */
  | { type: 'users'; users: unknown[]; own?: true }
  /** A user was removed live (its codes are dropped from the store by the instance that removed it). */
  | { type: 'remove-user'; email: unknown; own?: true }
  /** The emulator was reset: each instance goes back to its start (the store is cleared once). */
  | { type: 'reset' }
  /** An event of another instance, for this one's event readers. */
  | { type: 'event'; event: EmulatorEvent };

/**
 * What became of a live change sent (a config or users change): kept and applied here
 * (undefined); `superseded`: a config change kept, but a later one, made on it by another
 * instance, is applied here already and holds it (it is not applied again); `stale`: not kept,
 * since another instance's change was kept first, which this instance has now applied: the
 * change is to be made again on it.
 */
export type SendOutcome = undefined | 'superseded' | 'stale';

/**
 * How the instances sharing a store hear each other. The memory store has none. A change is
 * applied where it was made once the store has kept it, and by the others as it arrives.
 */
export interface StoreChannel {
  /**
   * Tells the other instances (never this one). A config, users (added or removed) or reset
   * change is kept in the store before it is sent: the promise settles once it is, and rejects
   * with a {@link StoreUnavailableError} when it cannot be (the change must then not be applied
   * anywhere). A config or users change is kept only on the live state it was made on, and
   * `apply` (which applies it here) is called at the moment it is kept, in its place among the
   * changes of the others; the promise says what became of it ({@link SendOutcome}). Events are
   * sent as they come, kept nowhere.
   */
  send(change: SharedChange, apply?: () => void): MaybePromise<SendOutcome>;
  /** Hears what the others send (and, at the start, the live state this one joins). */
  listen(apply: (change: SharedChange) => void): void;
  /** Whether an instance, this one or another, has an event reader (events are then sent). */
  readonly watched: boolean;
  /** This instance has event readers (true), or its last one has gone (false). */
  watching(active: boolean): void;
  /**
   * Reads the changes of users the store keeps past those applied here, and applies them: a
   * change refused on the users here (a user to remove not found, a phone number taken) is
   * checked again after it, since another instance may have made the change it needs a moment
   * ago. Settles once a read begun after the call is applied.
   */
  catchUpUsers?(): Promise<void>;
}

/**
 * A store that cannot answer (Redis unreachable): the request is answered 503
 * `store-unavailable`, unless the store lets buckets fail open.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  /**
   * The request's bucket had taken its token before the store failed (the code of a start or
   * verify could not be read or written, on a master other than its bucket's): not given back.
   */
  bucketCharged?: boolean;
  /**
   * The store answered, but did not keep the change: other instances' changes kept coming first
   * (a live change given up after its tries).
   */
  answered?: boolean;
}

/** Whether an error is a {@link StoreUnavailableError} (also across copies of this module). */
export function isStoreUnavailable(error: unknown): error is StoreUnavailableError {
  return error instanceof Error && error.name === 'StoreUnavailableError';
}

/** Whether the bucket of `key` is one `query` lists: of its level, client and text, after its key. */
export function matchesBucketQuery(key: string, query: BucketQuery): boolean {
  if (query.level !== undefined && levelOf(key) !== query.level) return false;
  if (query.search !== undefined && !key.includes(query.search)) return false;
  if (query.clientId !== undefined && parseBucketKey(key)?.clientId !== query.clientId)
    return false;
  return query.after === undefined || key > query.after;
}

/**
 * One page of the buckets a store holds, as `query` asks, at `now`: what every store answers
 * `listBuckets` with, whether it walks a Map or a scan of Redis.
 */
export function pageOfBuckets(
  entries: Iterable<[string, StoredBucket]>,
  query: BucketQuery,
  config: ResolvedConfig,
  now: number,
): { total: number; buckets: BucketView[] } {
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 100;
  const selection = createBucketSelection(query.sort ?? 'pressure', offset + limit);
  let total = 0;
  for (const [key, bucket] of entries) {
    if (!matchesBucketQuery(key, query)) continue;
    total++;
    const level = levelOf(key);
    const limits = config.limits[level];
    selection.offer({ key, bucket, fill: tokensAt(bucket, now, limits) / limits.burst });
  }
  const buckets = selection
    .result()
    .slice(offset)
    .map(({ key, bucket }) => viewBucket(key, bucket, config.limits[levelOf(key)], now));
  return { total, buckets };
}
