import { applyConfigPatch, type ResolvedConfig } from '../config/config.js';
import { changeLimitsAt, pastPoliciesOf, withPastPolicies } from './live-limits.js';
import { NO_PAST, readPastPolicies, type PastPolicies } from '../limits/past-policies.js';
import { ConfigError, configIssue } from '../config/config-error.js';
import { describeIssues, userSchema, type ConfigFile } from '../config/config-schema.js';
import { list } from '../config/schema-kit.js';
import {
  createState,
  useConfig,
  type EmulatorState,
  type InstanceCounters,
} from '../service/emulator-state.js';
import type { BucketView } from '../limits/bucket-view.js';
import type { BucketCounts, BucketQuery, SharedChange } from '../store/emulator-store.js';
import { andThen, recover, type Answer, type SyncOrAsync } from '../async/maybe-promise.js';
import type { OtpCode } from '../signin/otp-codes.js';
import { isKeptClock, isManualClock, type Clock } from '../time/clock.js';
import { faultBody, type Fault, type FaultSpec } from '../service/faults.js';
import { MAX_USERS, USERS_PER_REQUEST_MAX } from './dev-api-bounds.js';
import { matchesFilter, type RequestFilter } from './request-filter.js';
import type { EventHub } from './event-hub.js';
import { renderMetrics } from './metrics.js';
import type { CodeRecord, EmulatorEvent, RequestRecord } from '../records/records.js';

const usersSchema = list(userSchema, 0, USERS_PER_REQUEST_MAX, 'users at once');

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
 * Where the admin surface announces what changed: `all` reaches local listeners and event readers
 * (and, through the store, the readers of other instances); `here` only this instance's
 * listeners, for a change another instance made (its readers hear it from the one that made it).
 */
export interface Announcer {
  all: Pick<EventHub<EmulatorEvent>, 'active' | 'emit'>;
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
  // Where a reset takes the clock: for a clock shared by instances, where it started for all (an
  // instance that joined later would otherwise take the others back to its own start).
  const startedAt = isKeptClock(clock) ? clock.startMs : clock.now();
  const send = (change: SharedChange) => state.store.channel?.send(change);

  function applyConfig(next: ResolvedConfig, to = events.all): void {
    useConfig(state, next);
    if (to.active)
      to.emit({
        type: 'config',
        limits: next.source.limits,
        behavior: next.source.behavior,
        otp: next.source.otp,
      });
  }

  /** Throws when users already checked would pass the most an emulator holds. */
  function checkRoom(users: ConfigFile['users']): void {
    const { directory } = state;
    const fresh = new Set(
      users.map((user) => user.email.toLowerCase()).filter((email) => !directory.hasUser(email)),
    ).size;
    if (directory.users + fresh > MAX_USERS)
      throw new ConfigError([
        configIssue(
          [],
          `the emulator holds at most ${MAX_USERS} users; it has ${directory.users}, and these would add ${fresh}`,
        ),
      ]);
  }

  /** Back to the start, but for the store (which the instance that was reset clears). */
  function restart(to = events.all): void {
    Object.assign(state, createState(initialConfig, state.store));
    state.store.useConfig(initialConfig);
    if (isManualClock(clock)) clock.set(startedAt);
    if (to.active) to.emit({ type: 'reset', bucket: undefined, emulator: true });
  }

  const admin: Admin<Answer> = {
    get config() {
      return state.config;
    },
    configure(patch) {
      const parsed = applyConfigPatch(state.config.source, patch);
      // Dated by the store's clock, as bucket decisions are: buckets are settled at that moment.
      return andThen(state.store.now?.() ?? clock.now(), (at) => {
        const next = changeLimitsAt(state.config, parsed, at);
        const change = {
          type: 'config',
          live: liveParts(next),
          past: pastPoliciesOf(next),
        } as const;
        return andThen(send(change), () => {
          applyConfig(next);
          return next;
        });
      });
    },
    listBuckets: (query = {}) => state.store.listBuckets(query, state.config, clock.now()),
    getBucket: (key) => state.store.getBucket(key, state.config, clock.now()),
    resetBuckets(key) {
      return andThen(state.store.resetBuckets(key), (existed) => {
        if (existed && events.all.active)
          events.all.emit({ type: 'reset', bucket: key, emulator: false });
        return existed;
      });
    },
    latestCode: (email, merchantId) =>
      andThen(state.store.codes.latest(email, merchantId), (code) =>
        code === undefined ? undefined : codeRecord(code),
      ),
    listCodes: () => andThen(state.store.codes.list(), (codes) => codes.map(codeRecord)),
    addUsers(users) {
      const parsed = usersSchema.safeParse(users, { reportInput: true });
      if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, usersSchema));
      checkRoom(parsed.data);
      return andThen(send({ type: 'users', users: parsed.data }), () => {
        // Checked again: users another instance added meanwhile count too.
        checkRoom(parsed.data);
        return state.directory.addUsers(parsed.data);
      });
    },
    journal: (limit) => state.journal.list(limit).map(release),
    requests(filter = {}, limit = Infinity) {
      const matching: RequestRecord[] = [];
      const all = state.journal.list();
      for (let index = all.length - 1; index >= 0 && matching.length < limit; index--) {
        const record = all[index] as RequestRecord;
        if (matchesFilter(record, filter)) matching.push(release(record));
      }
      return matching;
    },
    get requestsDropped() {
      return state.journal.dropped;
    },
    failNext: (fault) => state.faults.add(faultBody(fault)),
    faults: () => state.faults.list(),
    clearFaults: () => state.faults.clear(),
    reset() {
      return andThen(state.store.clear(), () => {
        restart();
        send({ type: 'reset' });
      });
    },
    metrics: () =>
      // The counters of this instance are worth reporting even when the store cannot be asked.
      andThen(
        recover<BucketCounts | undefined>(state.store.counts(), () => undefined),
        (counts) =>
          renderMetrics({
            requests: state.counters.requests,
            buckets:
              counts === undefined ? undefined : { client: counts.client, caller: counts.caller },
            evictions: counts?.evictions ?? 0,
            codesIssued: state.counters.codesIssued,
            eventReaders: streams.readers,
            eventReadersDropped: streams.dropped,
            storeErrors: streams.storeErrors,
            store: state.store.health?.(),
          }),
      ),
  };

  /**
   * Applies a change another instance made. What it sends was checked there; it is checked
   * again here (the store is shared with whatever else can write to it), and what does not fit
   * is left out rather than applied in part.
   */
  function hear(change: SharedChange): void {
    switch (change.type) {
      case 'config': {
        const next = applyConfigPatch(state.config.source, change.live);
        applyConfig(
          withPastPolicies(next, readPastPolicies(change.past) ?? NO_PAST_AT_ALL),
          events.here,
        );
        return;
      }
      case 'users': {
        const parsed = usersSchema.safeParse(change.users);
        if (parsed.success) {
          checkRoom(parsed.data);
          state.directory.addUsers(parsed.data);
        }
        return;
      }
      case 'reset':
        restart(events.here);
        return;
      case 'event':
        return; // the emulator hands these to its event readers
    }
  }

  return { admin, hear };
}

/** Past limits of a change that came without them (or with some that do not fit): none. */
const NO_PAST_AT_ALL: PastPolicies = { client: NO_PAST, caller: NO_PAST };

/** The parts of a config a live change can make, whole: what instances sharing a store send. */
export function liveParts(config: ResolvedConfig): Pick<ConfigFile, 'limits' | 'behavior' | 'otp'> {
  const { limits, behavior, otp } = config.source;
  return { limits, behavior, otp };
}

/** A code as the dev API and the event stream report it. */
export function codeRecord(code: OtpCode): CodeRecord {
  return {
    merchant_id: code.merchantId,
    email: code.email,
    code: code.code,
    issued_at: new Date(code.issuedAt).toISOString(),
    expires_at: new Date(code.expiresAt).toISOString(),
    attempts_left: code.attemptsLeft,
    used: code.used,
  };
}
