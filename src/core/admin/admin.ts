import { andThen, type Answer, type SyncOrAsync } from '../async/maybe-promise.js';
import type { ResolvedConfig } from '../config/config.js';
import type { BucketView } from '../limits/bucket-view.js';
import { codeRecord } from '../records/code-record.js';
import type { CodeRecord, EmulatorEvent, RequestRecord } from '../records/records.js';
import type { EmulatorState, InstanceCounters } from '../service/emulator-state.js';
import { addFaultSpec, type Fault, type FaultSpec } from '../service/faults.js';
import type { BucketQuery, SharedChange } from '../store/emulator-store.js';
import type { Clock } from '../time/clock.js';
import { checkBucketQuery } from './bucket-query.js';
import type { EventHub } from './event-hub.js';
import { createLiveChanges, type UserRemoved } from './live-changes.js';
import { emulatorMetrics } from './metrics.js';
import { checkRequestQuery, matchingRequests, type RequestFilter } from './request-filter.js';
import { userPage } from './user-page.js';

/**
 * What the dev API (and tests) can see and change of a running emulator. `M` says how the
 * calls that reach its store answer: at once with the memory store (`createEmulator`), later
 * with a shared one.
 */
export interface Admin<out M extends Answer = 'sync'> {
  /** The running config. */
  readonly config: ResolvedConfig;
  /**
   * Applies a live change of limits, behaviour or codes; throws a ConfigError and changes nothing
   * when it does not fit. With a shared store the change is kept there first: when it cannot be
   * (the store is unreachable), it rejects and nothing changes, here or elsewhere.
   */
  configure(patch: unknown): SyncOrAsync<M, ResolvedConfig>;
  /** One page of buckets in `sort` order, and how many match in all. */
  listBuckets(query?: BucketQuery): SyncOrAsync<M, { total: number; buckets: BucketView[] }>;
  getBucket(key: string): SyncOrAsync<M, BucketView | undefined>;
  /** Resets one bucket (true when it existed) or, without a key, all of them. */
  resetBuckets(key?: string): SyncOrAsync<M, boolean>;
  /** The latest code for an e-mail, at one merchant or at any. */
  latestCode(email: string, merchantId?: string): SyncOrAsync<M, CodeRecord | undefined>;
  listCodes(): SyncOrAsync<M, CodeRecord[]>;
  /**
   * Adds users (or replaces those with the same e-mail); throws a ConfigError naming the bad
   * field and adds none when one does not fit. With a shared store, kept there first (as
   * {@link configure}).
   */
  addUsers(users: unknown): SyncOrAsync<M, { added: number; replaced: number }>;
  /**
   * Removes the user with this e-mail (compared case-insensitively) and drops its one-time
   * codes: undefined when no user has it (nothing changes); throws a ConfigError when it is no
   * e-mail address. With a shared store, its codes are dropped and the removal kept there before
   * it is made: when the store cannot be reached, it rejects and the user stays. A removed user
   * cannot sign in: start answers `user-not-found`, verify `code-not-found`. A reset brings back
   * the users of the config.
   */
  removeUser(email: string): SyncOrAsync<M, UserRemoved | undefined>;
  /**
   * One page of the users this emulator has now (the config's and those added live, less those
   * removed), in the order they were added, and how many there are.
   */
  listUsers(query?: UserQuery): UserPage;
  /** Requests, newest first. */
  journal(limit?: number): RequestRecord[];
  /**
   * The recorded requests that match `filter`, oldest first, at most `limit` (the oldest that
   * match): what a test asserts on ("exactly one start for alice, with a caller_id"). Records
   * hold the fields sent, but never the code.
   */
  requests(filter?: RequestFilter, limit?: number): RequestRecord[];
  /** Requests the journal let go to keep its size (`journal.size`); 0 while it holds them all. */
  readonly requestsDropped: number;
  /**
   * Scripts what the next calls get: `failNext({ operation: 'start', status: 503, count: 2 })`.
   * Faults apply in the order they were added, after authentication and before the bucket
   * (which they do not charge). Throws a ConfigError naming a bad field.
   */
  failNext(fault: FaultSpec): Fault;
  /** The faults still to apply. */
  faults(): Fault[];
  clearFaults(): void;
  /**
   * Returns the emulator to its state at creation: buckets, codes, journal, users, counters,
   * config, faults, and a manual clock to its start time.
   */
  reset(): SyncOrAsync<M, void>;
  /** Prometheus text. */
  metrics(): SyncOrAsync<M, string>;
}

/**
 * A page of {@link Admin.listUsers}: `limit` users (1 to 100,000, default 1,000) from the
 * `offset`-th (0 to 1,000,000); other values are refused (a ConfigError).
 */
export interface UserQuery {
  offset?: number | undefined;
  limit?: number | undefined;
  /** Only the user with this e-mail (compared case-insensitively). */
  email?: string | undefined;
}

/** A page of users, and where the next one starts (null after the last). */
export interface UserPage {
  total: number;
  offset: number;
  next_offset: number | null;
  users: Array<{ email: string; phone_number: string | undefined; token_count: number }>;
}

/**
 * Throws a TypeError naming `what` when `value` is not text: an e-mail or key of another type threw
 * from inside (toLowerCase), or matched nothing without a word.
 */
function checkText(value: unknown, what: string, or = ''): asserts value is string {
  if (typeof value !== 'string')
    throw new TypeError(
      `${what} must be a string${or}; got ${typeof value === 'object' && value !== null ? 'an object' : String(value)}`,
    );
}

/**
 * Where the admin surface announces what changed: `all` reaches local listeners and event readers
 * (and, through the store, the readers of other instances); `here` only this instance's
 * listeners, for a change another instance made (its readers hear it from the one that made it).
 */
export interface Announcer {
  /**
   * Everyone. `whole` says whether anyone needs a request event's whole record (a listener, a
   * reader of whole records, another instance): when only readers of summaries listen, records
   * are announced as they stand, not worked out first.
   */
  all: Pick<EventHub<EmulatorEvent>, 'active' | 'emit'> & { readonly whole: boolean };
  here: Pick<EventHub<EmulatorEvent>, 'active' | 'emit'>;
}

/**
 * The admin surface over an emulator's state, and `hear`, which applies what another instance
 * sharing the store changed. A change made here is applied here first, then sent to the others.
 */
export function createAdmin(
  state: EmulatorState,
  clock: Clock,
  events: Announcer,
  streams: InstanceCounters,
  initialConfig: ResolvedConfig,
  /** Completes a record as it leaves (facts worked out, secrets scrubbed). */
  release: (record: RequestRecord) => RequestRecord,
): { admin: Admin<Answer>; hear(change: SharedChange): void } {
  const { configure, addUsers, removeUser, reset, hear } = createLiveChanges(
    state,
    clock,
    events,
    initialConfig,
  );
  const admin: Admin<Answer> = {
    get config() {
      return state.config;
    },
    configure,
    listBuckets(query = {}) {
      checkBucketQuery(query);
      return state.store.listBuckets(query, state.config, clock.now());
    },
    getBucket(key) {
      checkText(key, 'getBucket: key');
      return state.store.getBucket(key, state.config, clock.now());
    },
    resetBuckets(key) {
      if (key !== undefined)
        checkText(key, 'resetBuckets: key', ', or left out to reset every bucket');
      return andThen(state.store.resetBuckets(key), (existed) => {
        if (existed && events.all.active)
          events.all.emit({ type: 'reset', bucket: key, emulator: false });
        return existed;
      });
    },
    latestCode(email, merchantId) {
      checkText(email, 'latestCode: email');
      if (merchantId !== undefined) checkText(merchantId, 'latestCode: merchantId');
      return andThen(state.store.codes.latest(email, merchantId), (code) =>
        code === undefined ? undefined : codeRecord(code),
      );
    },
    listCodes: () => andThen(state.store.codes.list(), (codes) => codes.map(codeRecord)),
    addUsers,
    removeUser,
    listUsers: (query) => userPage(state.directory, query),
    journal: (limit) => state.journal.list(limit).map(release),
    requests(filter = {}, limit = Infinity) {
      checkRequestQuery(filter, limit);
      return matchingRequests(state.journal.list(), filter, limit, release);
    },
    get requestsDropped() {
      return state.journal.dropped;
    },
    failNext: (fault) => addFaultSpec(state.faults, fault),
    faults: () => state.faults.list(),
    clearFaults: () => state.faults.clear(),
    reset,
    metrics: () => emulatorMetrics(state, streams),
  };
  return { admin, hear };
}
