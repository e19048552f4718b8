import { applyConfigPatch, type ResolvedConfig } from '../config/config.js';
import { ConfigError, configIssue } from '../config/config-error.js';
import { describeIssues, userSchema } from '../config/config-schema.js';
import { list } from '../config/schema-kit.js';
import {
  createState,
  useConfig,
  type EmulatorState,
  type StreamCounters,
} from '../emulator-state.js';
import { levelOf, parseBucketKey, type Level } from '../limits/bucket-key.js';
import {
  createBucketSelection,
  viewBucket,
  type BucketSort,
  type BucketView,
} from '../limits/bucket-view.js';
import { tokensAt } from '../limits/token-bucket.js';
import type { OtpCode } from '../signin/otp-codes.js';
import { isManualClock, type Clock } from '../time/clock.js';
import { faultBody, type Fault, type FaultSpec } from './faults.js';
import { matchesFilter, type RequestFilter } from './request-filter.js';
import type { EventHub } from './event-hub.js';
import { renderMetrics } from './metrics.js';
import type { CodeRecord, EmulatorEvent, RequestRecord } from './records.js';

/** The most users an emulator holds (the config's own plus those added live). */
export const MAX_USERS = 1_000_000;

const usersSchema = list(userSchema, 0, 100_000, 'users at once');

/** Options of {@link Admin.listBuckets}. */
export interface BucketQuery {
  level?: Level | undefined;
  clientId?: string | undefined;
  /** Keeps buckets whose key contains this text. */
  search?: string | undefined;
  sort?: BucketSort | undefined;
  /** Buckets skipped, in sort order, before the page starts. @default 0 */
  offset?: number | undefined;
  /** @default 100 */
  limit?: number | undefined;
}

/** What the dev API (and tests) can see and change of a running emulator. */
export interface Admin {
  /** The running config. */
  readonly config: ResolvedConfig;
  /** Applies a live change of limits, behaviour or codes; throws a ConfigError and changes nothing when it does not fit. */
  configure(patch: unknown): ResolvedConfig;
  /** One page of buckets in `sort` order, and how many match in all. */
  listBuckets(query?: BucketQuery): { total: number; buckets: BucketView[] };
  getBucket(key: string): BucketView | undefined;
  /** Resets one bucket (true when it existed) or, without a key, all of them. */
  resetBuckets(key?: string): boolean;
  /** The latest code for an e-mail, at one merchant or at any. */
  latestCode(email: string, merchantId?: string): CodeRecord | undefined;
  listCodes(): CodeRecord[];
  /**
   * Adds users (or replaces those with the same e-mail); throws a ConfigError naming the bad
   * field and adds none when one does not fit.
   */
  addUsers(users: unknown): { added: number; replaced: number };
  /** Requests, newest first. */
  journal(limit?: number): RequestRecord[];
  /**
   * The recorded requests that match `filter`, oldest first: what a test asserts on ("exactly one
   * start for alice, with a caller_id"). Records hold the fields sent, but never the code.
   */
  requests(filter?: RequestFilter): RequestRecord[];
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
  reset(): void;
  /** Prometheus text. */
  metrics(): string;
}

/** The admin surface over an emulator's state. */
export function createAdmin(
  state: EmulatorState,
  clock: Clock,
  events: EventHub<EmulatorEvent>,
  streams: StreamCounters,
  initialConfig: ResolvedConfig,
  /** Completes a record as it leaves (facts worked out, secrets scrubbed). */
  release: (record: RequestRecord) => RequestRecord,
): Admin {
  const startedAt = clock.now();
  return {
    get config() {
      return state.config;
    },
    configure(patch) {
      const next = applyConfigPatch(state.config.source, patch);
      useConfig(state, next);
      if (events.active)
        events.emit({
          type: 'config',
          limits: next.source.limits,
          behavior: next.source.behavior,
          otp: next.source.otp,
        });
      return next;
    },
    listBuckets(query = {}) {
      const now = clock.now();
      const { config } = state;
      const offset = query.offset ?? 0;
      const limit = query.limit ?? 100;
      const selection = createBucketSelection(query.sort ?? 'pressure', offset + limit);
      let total = 0;
      for (const [key, bucket] of state.buckets.entries()) {
        const level = levelOf(key);
        if (query.level !== undefined && level !== query.level) continue;
        if (query.search !== undefined && !key.includes(query.search)) continue;
        if (query.clientId !== undefined && parseBucketKey(key)?.clientId !== query.clientId)
          continue;
        total++;
        const limits = config.limits[level];
        selection.offer({ key, bucket, fill: tokensAt(bucket, now, limits) / limits.burst });
      }
      const buckets = selection
        .result()
        .slice(offset)
        .map(({ key, bucket }) => viewBucket(key, bucket, config.limits[levelOf(key)], now));
      return { total, buckets };
    },
    getBucket(key) {
      const bucket = state.buckets.get(key);
      return bucket === undefined
        ? undefined
        : viewBucket(key, bucket, state.config.limits[levelOf(key)], clock.now());
    },
    resetBuckets(key) {
      const existed = key === undefined ? (state.buckets.clear(), true) : state.buckets.delete(key);
      if (existed && events.active) events.emit({ type: 'reset', bucket: key, emulator: false });
      return existed;
    },
    latestCode(email, merchantId) {
      const code = state.codes.latest(email, merchantId);
      return code === undefined ? undefined : codeRecord(code);
    },
    listCodes: () => state.codes.list().map(codeRecord),
    addUsers(users) {
      const parsed = usersSchema.safeParse(users);
      if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, usersSchema));
      const { directory } = state;
      const fresh = new Set(
        parsed.data
          .map((user) => user.email.toLowerCase())
          .filter((email) => !directory.hasUser(email)),
      ).size;
      if (directory.users + fresh > MAX_USERS)
        throw new ConfigError([
          configIssue(
            [],
            `the emulator holds at most ${MAX_USERS} users; it has ${directory.users}, and these would add ${fresh}`,
          ),
        ]);
      return directory.addUsers(parsed.data);
    },
    journal: (limit) => state.journal.list(limit).map(release),
    requests(filter = {}) {
      const matching: RequestRecord[] = [];
      const all = state.journal.list();
      for (let index = all.length - 1; index >= 0; index--) {
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
      Object.assign(state, createState(initialConfig));
      if (isManualClock(clock)) clock.set(startedAt);
      if (events.active) events.emit({ type: 'reset', bucket: undefined, emulator: true });
    },
    metrics() {
      let client = 0;
      for (const [key] of state.buckets.entries()) if (levelOf(key) === 'client') client++;
      return renderMetrics({
        requests: state.counters.requests,
        buckets: { client, caller: state.buckets.size - client },
        evictions: state.buckets.evictions,
        codesIssued: state.counters.codesIssued,
        eventReaders: streams.readers,
        eventReadersDropped: streams.dropped,
      });
    },
  };
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
