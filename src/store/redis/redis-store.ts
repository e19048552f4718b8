import { createHash, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Redis, RedisOptions } from 'ioredis';
import type { ResolvedConfig } from '../../core/config/config.js';
import { decideTake, type BucketLedger, type BucketTake } from '../../core/limits/bucket-ledger.js';
import { levelOf } from '../../core/limits/bucket-key.js';
import type { StoredBucket } from '../../core/limits/bucket-store.js';
import { viewBucket } from '../../core/limits/bucket-view.js';
import type { OtpCode, OtpStore, VerifyOutcome } from '../../core/signin/otp-codes.js';
import {
  pageOfBuckets,
  StoreUnavailableError,
  type BucketCounts,
  type EmulatorStore,
  type SharedChange,
  type StoreChannel,
} from '../../core/store/emulator-store.js';
import { isDateTime, type ManualClock } from '../../core/time/clock.js';
import { readEvent } from '../../core/admin/read-event.js';
import { createSharedClock } from './shared-clock.js';
import {
  CLOCK_ADD_SCRIPT,
  CLOCK_READ_SCRIPT,
  ISSUE_SCRIPT,
  KEEP_SCRIPT,
  NOW_SCRIPT,
  TAKE_SCRIPT,
  USERS_CHECK_SCRIPT,
  VERIFY_SCRIPT,
} from './redis-scripts.js';
import { createRedisTime } from './redis-time.js';
import {
  isMetaSound,
  liveFields,
  pastArguments,
  readLiveChange,
  refilledLevels,
  type LiveChange,
} from './live-change.js';
import { parseRedisUrl } from './store-url.js';

/** What a store does with a bucket decision while Redis cannot be reached. */
export type StoreErrorMode = 'open' | 'closed';

/** Options of {@link connectRedisStore}. */
export interface RedisStoreOptions {
  /** `redis://[user:password@]host[:port][/db]`, `rediss://…` (TLS) or `unix:///path/to/redis.sock`. */
  url: string;
  /**
   * The first part of every key and channel: emulators with different prefixes share one Redis
   * without seeing each other.
   * @default "uas"
   */
  prefix?: string | undefined;
  /**
   * While Redis cannot be reached: `closed` answers every request 503 `store-unavailable`;
   * `open` lets bucket decisions through as if every bucket were full (a sign-in still needs
   * Redis for its code, so start and verify get 503 either way).
   * @default "closed"
   */
  onError?: StoreErrorMode | undefined;
  /**
   * The longest a Redis command may take before it counts as failed.
   * @default 1000
   */
  timeoutMs?: number | undefined;
  /**
   * The config this instance starts with, in file form. Instances started with the same config
   * join the live state they find (limits changed live, users added); one started with another
   * config makes its own the shared one.
   */
  config: unknown;
  /** A manual clock shared by every instance, starting here unless the store already has one. */
  manualClock?: { startMs: number } | undefined;
  /** Hears when Redis goes away and comes back. */
  onStatus?: ((status: StoreStatus) => void) | undefined;
  /** Hears what another instance sent that could not be applied. */
  onWarning?: ((message: string) => void) | undefined;
  /**
   * How often to ask whether an instance has a reader of events (only then are events sent).
   * @default 1000
   */
  watchIntervalMs?: number | undefined;
}

/** Redis went away (`down`), or is back (`up`). */
export type StoreStatus = { state: 'down'; error: string } | { state: 'up' };

/** A store on Redis, shared by every instance connected with the same URL and prefix. */
export interface RedisStore extends EmulatorStore {
  readonly kind: 'shared';
  readonly channel: StoreChannel;
  /** The URL without its password. */
  readonly target: string;
  readonly prefix: string;
  readonly onError: StoreErrorMode;
  /** Whether the last command reached Redis. */
  readonly healthy: boolean;
  /** Bucket decisions let through while Redis was unreachable (`onError: "open"`). */
  readonly failedOpen: number;
  /** Whether this instance found live state of its config there, and took it. */
  readonly joined: boolean;
  /** The shared manual clock, when one was asked for. */
  readonly clock: ManualClock | undefined;
  /** Disconnects. */
  close(): Promise<void>;
}

/** How long a bucket key lives at least after a take: a screen still sees a bucket just refilled. */
const BUCKET_LEAST_TTL_MS = 60_000;
/** With a manual clock, time in Redis does not tell when a bucket is full: keep it a week. */
const MANUAL_LEAST_TTL_MS = 7 * 86_400_000;
/** The longest a bucket key lives: a year. */
const BUCKET_MOST_TTL_MS = 365 * 86_400_000;
/** How long a code is kept past its expiry, so that a late try is told "expired". */
const CODE_KEEP_MS = 86_400_000;
/** Keys read per scan. */
const SCAN_COUNT = 1000;
/**
 * The most keys a listing reads (the buckets or codes of the dev API, the counts of the
 * metrics): enough for any test, and read well within a command's time on a loaded Redis.
 */
const MAX_LISTED_KEYS = 10_000;
/** Hashes read per pipeline of a listing. */
const READ_BATCH = 1000;
/** How often Redis's clock is measured again, for the deadlines of scripts. */
const TIME_REFRESH_MS = 10_000;
/** The largest message read from a channel. */
const MAX_MESSAGE_BYTES = 32 * 1_048_576;
/** What ioredis says of a command it could not send, or whose connection closed before a reply. */
const NOT_CONNECTED =
  /^(Stream isn't writeable|Connection is closed|Reached the max retries per request|Command aborted due to connection close)/;
/** Errors Redis answers while it cannot serve anyone (loading, busy, a replica, a cluster down). */
const REDIS_AWAY = /^(LOADING|BUSY|MASTERDOWN|READONLY|CLUSTERDOWN|TRYAGAIN)\b/;

/** A script ran past its deadline and changed nothing: its caller has given up, or is about to. */
class LateReply extends Error {}

/** A script's reply, unless it came too late to count. */
function onTime<T>(reply: T | 'late'): T {
  if (reply === 'late') throw new LateReply('late');
  return reply;
}

/** The scripts, by name: each but uasNow answers 'late' when run past its deadline. */
interface ScriptCommands {
  uasTake(key: string, ...args: string[]): Promise<[string, string, string] | 'late'>;
  uasIssue(key: string, ...args: string[]): Promise<string>;
  uasVerify(key: string, ...args: string[]): Promise<string[] | 'late'>;
  uasNow(manual: string, deadline: ''): Promise<string>;
  uasClockRead(key: string, fallback: string): Promise<string>;
  uasClockAdd(key: string, fallback: string, ms: string): Promise<string>;
  uasKeep(key: string, ttlMs: string): Promise<number>;
  uasUsersCheck(key: string): Promise<'ok' | 'junk'>;
}

type ScriptedRedis = Redis & ScriptCommands;

/**
 * Connects to Redis and returns a store every instance on the same URL and prefix shares:
 * buckets decided by one atomic script each, on Redis's clock; codes issued and checked
 * atomically; live changes and events passed on over pub/sub. Throws an Error with a one-line
 * message when Redis cannot be reached, or its database cannot be used; having thrown, it leaves
 * no connection open.
 */
export async function connectRedisStore(options: RedisStoreOptions): Promise<RedisStore> {
  const undo: Array<() => void> = [];
  try {
    return await openRedisStore(options, (step) => undo.push(step));
  } catch (error) {
    // Open connections and timers would keep the process from exiting.
    for (const step of undo) step();
    throw error;
  }
}

/** {@link connectRedisStore}, telling `onFailure` how to undo each thing it opens. */
async function openRedisStore(
  options: RedisStoreOptions,
  onFailure: (undo: () => void) => void,
): Promise<RedisStore> {
  const target = parseRedisUrl(options.url);
  const prefix = options.prefix ?? 'uas';
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(prefix))
    throw new Error(
      `invalid store prefix ${JSON.stringify(prefix)}: expected 1 to 64 letters, digits, "_", "." or "-"`,
    );
  const onError = options.onError ?? 'closed';
  const timeoutMs = options.timeoutMs ?? 1000;
  const instance = randomUUID();
  const keys = {
    bucket: (key: string) => `${prefix}:bucket:{${key}}`,
    code: (merchantId: string, email: string) =>
      `${prefix}:code:{${merchantId.toLowerCase()} ${email.toLowerCase()}}`,
    meta: `${prefix}:meta`,
    users: `${prefix}:users`,
    clock: `${prefix}:clock`,
    clockStart: `${prefix}:clock-start`,
    changes: `${prefix}:changes`,
    events: `${prefix}:events`,
  };
  const bucketPattern = `${prefix}:bucket:*`;
  const codePattern = `${prefix}:code:*`;

  const connectionOptions: RedisOptions = {
    ...('path' in target.connection
      ? {
          path: target.connection.path,
          db: target.connection.db,
          password: target.connection.password,
        }
      : {
          host: target.connection.host,
          port: target.connection.port,
          db: target.connection.db,
          username: target.connection.username,
          password: target.connection.password,
          tls: target.connection.tls ? {} : undefined,
        }),
    lazyConnect: true,
    // A command while Redis is away fails at once, rather than waiting in a queue: the request
    // that needs it is answered (503, or open) instead of hanging.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(timeoutMs, 2000),
    retryStrategy: (times) => Math.min(50 * 2 ** times, 2000),
    enableAutoPipelining: true,
    connectionName: 'uas',
  };
  // ioredis is an optional peer dependency: loaded only by those who use a Redis store.
  const { Redis: RedisClient } = await import('ioredis').catch((error: unknown) => {
    throw new Error(
      `a Redis store needs ioredis, an optional dependency of uas that is not installed here: npm install ioredis@5 (${describe(error)})`,
    );
  });
  const redis = new RedisClient(connectionOptions) as ScriptedRedis;
  redis.defineCommand('uasTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
  redis.defineCommand('uasIssue', { numberOfKeys: 1, lua: ISSUE_SCRIPT });
  redis.defineCommand('uasVerify', { numberOfKeys: 1, lua: VERIFY_SCRIPT });
  redis.defineCommand('uasNow', { numberOfKeys: 0, lua: NOW_SCRIPT });
  redis.defineCommand('uasClockRead', { numberOfKeys: 1, lua: CLOCK_READ_SCRIPT });
  redis.defineCommand('uasClockAdd', { numberOfKeys: 1, lua: CLOCK_ADD_SCRIPT });
  redis.defineCommand('uasKeep', { numberOfKeys: 1, lua: KEEP_SCRIPT });
  redis.defineCommand('uasUsersCheck', { numberOfKeys: 1, lua: USERS_CHECK_SCRIPT });
  // ioredis would subscribe again by itself after a reconnect, but leaves that command's failure
  // unhandled (Redis slow or gone again meanwhile), which ends the process: done here instead.
  const subscriber = redis.duplicate({ enableOfflineQueue: true, autoResubscribe: false });
  onFailure(() => {
    redis.disconnect();
    subscriber.disconnect();
  });

  let healthy = true;
  let failedOpen = 0;
  /** Whether the connections were made: a failure before is the error connecting throws, no status. */
  let connected = false;
  /** Redis went away: why, in words for people ("did not answer within 1000 ms"), or the error. */
  const markDown = (why: unknown) => {
    if (!healthy || !connected) return;
    healthy = false;
    const error = typeof why === 'string' ? why : failure(why).reason.replace(/^is /, '');
    options.onStatus?.({ state: 'down', error });
  };
  const markUp = () => {
    if (healthy) return;
    healthy = true;
    options.onStatus?.({ state: 'up' });
  };
  /**
   * A SELECT of the URL's database refused (`ERR DB index is out of range`) on a connection
   * being made: ioredis would go on in database 0, among other keys. The connection is dropped
   * before it is ready (and made again later, as after any loss), so that no command ever runs
   * in another database. Returns what is wrong, for people, if that was it.
   */
  const refuseDatabase = (client: Redis, error: unknown): string | undefined => {
    if ((error as { command?: { name?: unknown } }).command?.name !== 'select') return undefined;
    client.disconnect(true);
    const { db } = target.connection;
    return /out of range/i.test(describe(error))
      ? `database ${db} does not exist (${describe(error)})`
      : `database ${db} cannot be selected (${describe(error)})`;
  };
  // ioredis reports a lost connection as an event; without a listener it would print it.
  /** Why the connection was lost, until it is back: what "not connected" is said with. */
  let lastProblem: string | undefined;
  /** A refused SELECT, until a connection is made again: it outweighs what follows from it. */
  let databaseProblem: string | undefined;
  redis.on('connect', () => (databaseProblem = undefined));
  redis.on('error', (error: unknown) => {
    databaseProblem = refuseDatabase(redis, error) ?? databaseProblem;
    // ioredis's own words for a closed connection say less than the error that closed it.
    if (databaseProblem !== undefined || !NOT_CONNECTED.test(describe(error)))
      lastProblem = databaseProblem ?? describe(error);
    markDown(lastProblem ?? 'not connected');
  });
  subscriber.on('error', (error: unknown) => void refuseDatabase(subscriber, error));
  redis.on('ready', () => {
    lastProblem = undefined;
    markUp();
    void seedMeta().catch(() => {});
  });

  // Scripts are given a deadline in Redis's time: measured now, again every 10 s and after a
  // reconnect, on the connection that sends them.
  const time = createRedisTime({
    time: () => redis.time() as unknown as Promise<[string, string]>,
    monotonic: () => performance.now(),
  });
  redis.on('ready', () => void time.refresh().catch(() => {}));
  // And the shared manual clock, once there is one: a Redis that lost it gets this one's time.
  let resyncClock = () => {};
  redis.on('ready', () => resyncClock());
  const timeTimer = setInterval(() => void time.refresh().catch(() => {}), TIME_REFRESH_MS);
  timeTimer.unref();
  onFailure(() => clearInterval(timeTimer));
  const deadline = () => time.deadline(timeoutMs);

  try {
    await redis.connect();
    await subscriber.connect();
    await time.refresh();
  } catch (error) {
    if (databaseProblem !== undefined)
      throw new Error(`Redis at ${target.display}: ${databaseProblem}`);
    // "Connection is closed" says less than the error that closed it (ECONNREFUSED, ENOENT).
    throw new Error(`cannot reach Redis at ${target.display}: ${lastProblem ?? describe(error)}`);
  }
  connected = true;

  /**
   * Why a command failed, in words for people (`did not answer within 1000 ms`), and whether it
   * says Redis is away, rather than that it refused this one command.
   */
  function failure(error: unknown): { reason: string; away: boolean } {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof LateReply || message === 'Command timed out')
      return { reason: `did not answer within ${timeoutMs} ms`, away: true };
    if (error instanceof Error && error.name === 'ReplyError')
      return {
        reason: `answered with an error: ${describe(error)}`,
        away: REDIS_AWAY.test(message),
      };
    if (NOT_CONNECTED.test(message))
      return {
        reason: `is not connected${lastProblem === undefined ? '' : `: ${lastProblem}`}`,
        away: true,
      };
    return { reason: `failed: ${describe(error)}`, away: true };
  }

  /** A failed command as the request that needed it is told: marks Redis down when it is away. */
  function refusal(error: unknown): StoreUnavailableError {
    const { reason, away } = failure(error);
    if (away) markDown(reason.replace(/^is /, ''));
    return new StoreUnavailableError(`Redis at ${target.display} ${reason}`);
  }

  /** Runs a command; a failure becomes a StoreUnavailableError (and marks Redis down if away). */
  async function command<T>(run: () => Promise<T>): Promise<T> {
    try {
      const value = await run();
      markUp();
      return value;
    } catch (error) {
      throw refusal(error);
    }
  }

  // The config this instance started with decides whether it joins the live state it finds.
  // The clock's mode is part of it: a manual clock and the system clock cannot share buckets.
  const base = fingerprint({
    config: options.config,
    clock: options.manualClock === undefined ? 'system' : 'manual',
  });
  /** The live change in force (limits, behaviour, codes, and the limits before), as kept. */
  let live: LiveChange | undefined;
  let joined = false;
  let users: unknown[][] = [];
  // Asked before the config is read: an instance of this config that starts at the same moment
  // has then either written it (this one joins) or not yet (both start the prefix, alike).
  const subscribed = (await command(() => redis.pubsub('NUMSUB', keys.changes))) as unknown[];
  const running = Number(subscribed[1] ?? 0);
  const meta = await command(() => redis.hgetall(keys.meta));
  if (meta.base === base) {
    joined = true;
    live = readLiveChange(meta);
    users = (await command(() => redis.lrange(keys.users, 0, -1)))
      .map(safeParse)
      .filter((batch): batch is unknown[] => Array.isArray(batch));
  } else if (running > 0 && meta.base !== undefined) {
    // Instances still running on the prefix would keep their own config beside this one's:
    // limits would no longer be exact, nor users, resets and the clock the same everywhere.
    throw new Error(
      `prefix "${prefix}" at ${target.display} is used by ${running === 1 ? 'an instance' : `${running} instances`} started with another config (limits, users, clients, codes or clock mode differ): start this one with the same config and flags to join them, or give it a prefix of its own (--store-prefix)`,
    );
  } else {
    await command(() =>
      redis.multi().del(keys.meta, keys.users).hset(keys.meta, 'base', base).exec(),
    );
  }

  /** After Redis lost its data (a restart without persistence): what this instance knows. */
  async function seedMeta(): Promise<void> {
    const created = await redis.hsetnx(keys.meta, 'base', base);
    if (created === 1 && live !== undefined) await redis.hset(keys.meta, liveFields(live));
  }

  const clock =
    options.manualClock === undefined
      ? undefined
      : await createSharedClock({
          store: {
            read: (fallback) => redis.uasClockRead(keys.clock, fallback),
            add: (ms, fallback) => redis.uasClockAdd(keys.clock, fallback, String(ms)),
            write: (ms) => redis.set(keys.clock, ms),
            start: async (fallback) => {
              await redis.set(keys.clockStart, fallback, 'NX');
              return redis.get(keys.clockStart);
            },
          },
          startMs: options.manualClock.startMs,
          publish: (value) => void publish(keys.changes, { clock: value }).catch(markDown),
          run: command,
        });
  if (clock !== undefined) resyncClock = () => void clock.resync().catch(() => {});
  const manualNow = () => (clock === undefined ? '' : String(clock.now()));
  const leastTtl = String(clock === undefined ? BUCKET_LEAST_TTL_MS : MANUAL_LEAST_TTL_MS);
  const mostTtl = String(BUCKET_MOST_TTL_MS);

  function publish(channel: string, message: object): Promise<unknown> {
    return redis.publish(channel, JSON.stringify({ from: instance, ...message }));
  }

  // Pub/sub: changes of every instance, and events while this one has readers.
  let apply: ((change: SharedChange) => void) | undefined;
  let readersHere = false;
  let othersWatching = false;
  subscriber.on('message', (channel: string, text: string) => {
    if (text.length > MAX_MESSAGE_BYTES) return;
    const message = safeParse(text) as Record<string, unknown> | undefined;
    if (typeof message !== 'object' || message === null || message.from === instance) return;
    if (channel === keys.events) {
      const event = readersHere ? readEvent(message.event) : undefined;
      if (event === undefined) return;
      // A request of that instance: its id is in that instance's journal.
      if (event.type === 'request') event.from = String(message.from).slice(0, 64);
      apply?.({ type: 'event', event });
      return;
    }
    if (typeof message.clock === 'number') {
      clock?.heard(message.clock);
      return;
    }
    const change = message.change as SharedChange | undefined;
    if (typeof change !== 'object' || change === null) return;
    if (change.type === 'config') live = change;
    hearChange(change);
  });
  await subscriber.subscribe(keys.changes);
  subscriber.on('ready', () => {
    const channels = readersHere ? [keys.changes, keys.events] : [keys.changes];
    subscriber.subscribe(...channels).catch(() => {});
  });

  function hearChange(change: SharedChange): void {
    if (apply === undefined) return;
    try {
      if (change.type === 'config' || change.type === 'users' || change.type === 'reset')
        apply(change);
    } catch (error) {
      options.onWarning?.(
        `a ${change.type} change from another instance was not applied: ${describe(error)}`,
      );
    }
  }

  // Each second: who watches events, and (an answer being one) whether Redis is back, so that
  // health and the metrics say so even while no request comes to try it.
  const watchTimer = setInterval(() => {
    redis
      .pubsub('NUMSUB', keys.events)
      .then((reply) => {
        markUp();
        const count = Number((reply as unknown[])[1] ?? 0);
        othersWatching = count - (readersHere ? 1 : 0) > 0;
      })
      .catch(() => {});
  }, options.watchIntervalMs ?? 1000);
  watchTimer.unref();

  const channel: StoreChannel = {
    send(change) {
      if (change.type === 'event') {
        if (othersWatching) void publish(keys.events, { event: change.event }).catch(markDown);
        return;
      }
      // Kept, then told: a change Redis did not take is applied nowhere (the dev API says 503).
      return command(async () => {
        if (change.type === 'config') await redis.hset(keys.meta, liveFields(change));
        else if (change.type === 'users')
          await redis.rpush(keys.users, JSON.stringify(change.users));
        await publish(keys.changes, { change });
      }).then(async () => {
        if (change.type !== 'config') return;
        const before = live;
        live = change;
        // Told everywhere: a bucket key that would now expire before its bucket is full again
        // (a slower rate, a larger burst) is kept longer. Once, by the instance that made it.
        await keepBucketsRefilling(before, change).catch(() => {});
      });
    },
    listen(listener) {
      apply = listener;
      // The live state this instance joins, as if it had just been sent.
      if (live !== undefined) hearChange(live);
      for (const batch of users) hearChange({ type: 'users', users: batch });
      users = [];
    },
    get watched() {
      return othersWatching;
    },
    watching(active) {
      readersHere = active;
      if (active) void subscriber.subscribe(keys.events).catch(() => {});
      else void subscriber.unsubscribe(keys.events).catch(() => {});
    },
  };

  const ledger: BucketLedger = {
    take(request: BucketTake) {
      const { policy } = request;
      return redis
        .uasTake(
          keys.bucket(request.key),
          manualNow(),
          deadline(),
          String(policy.burst),
          String(policy.refillPerMs),
          String(request.cost),
          request.mode,
          flag(request.shadow),
          flag(request.valid),
          flag(request.countInvalid),
          leastTtl,
          mostTtl,
          ...pastArguments(policy.past),
        )
        .then(onTime)
        .then(
          ([tokens, updatedAt, now]) => {
            markUp();
            const stored =
              tokens === '' ? undefined : { tokens: Number(tokens), updatedAt: Number(updatedAt) };
            return decideTake(stored, { ...request, now: Number(now) }).taken;
          },
          (error: unknown) => {
            const refused = refusal(error);
            if (onError === 'closed') throw refused;
            // Open: as if the bucket were full, so that nobody is refused while Redis is away.
            failedOpen++;
            return decideTake(undefined, request).taken;
          },
        );
    },
  };

  const codes: OtpStore<'async'> = {
    async issue(merchantId, email, code, _now, ttlMs, maxAttempts) {
      const issuedAt = Number(
        await command(() =>
          redis
            .uasIssue(
              keys.code(merchantId, email),
              manualNow(),
              deadline(),
              merchantId,
              email,
              code,
              String(ttlMs),
              String(maxAttempts),
              String(CODE_KEEP_MS),
            )
            .then(onTime),
        ),
      );
      return {
        merchantId,
        email,
        code,
        issuedAt,
        expiresAt: issuedAt + ttlMs,
        attemptsLeft: maxAttempts,
        used: false,
      };
    },
    async verify(merchantId, email, candidate) {
      const reply = await command(() =>
        redis
          .uasVerify(keys.code(merchantId, email), manualNow(), deadline(), candidate)
          .then(onTime),
      );
      return verifyOutcome(reply);
    },
    async latest(email, merchantId) {
      if (merchantId !== undefined)
        return readCode(await read(() => fieldsOf(keys.code(merchantId, email), CODE_FIELDS)));
      let newest: OtpCode | undefined;
      for (const code of await allCodes())
        if (
          code.email.toLowerCase() === email.toLowerCase() &&
          (newest === undefined || code.issuedAt >= newest.issuedAt)
        )
          newest = code;
      return newest;
    },
    list: () => allCodes(),
  };

  /** The fields of one hash; all null when its key holds another type (written by another). */
  const fieldsOf = (key: string, fields: readonly string[]) =>
    redis.hmget(key, ...fields).catch((error: unknown) => {
      if (error instanceof Error && error.message.startsWith('WRONGTYPE'))
        return fields.map(() => null);
      throw error;
    });

  /**
   * Runs a read of the dev API or the metrics: a failure is a StoreUnavailableError, but says
   * nothing of Redis's health (a listing too large to answer in time is not Redis going away).
   */
  async function read<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw new StoreUnavailableError(`Redis at ${target.display} ${failure(error).reason}`);
    }
  }

  /** The keys matching a pattern, a scan at a time. */
  async function* scan(pattern: string): AsyncGenerator<string[]> {
    let cursor = '0';
    do {
      const [next, batch] = await read(() =>
        redis.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT),
      );
      cursor = next;
      yield batch;
    } while (cursor !== '0');
  }

  /** The first {@link MAX_LISTED_KEYS} keys matching a pattern (a scan may repeat one). */
  async function someKeys(pattern: string): Promise<string[]> {
    const found = new Set<string>();
    for await (const batch of scan(pattern))
      for (const key of batch) {
        if (found.size === MAX_LISTED_KEYS) return [...found];
        found.add(key);
      }
    return [...found];
  }

  /**
   * The fields of hashes, {@link READ_BATCH} to a pipeline, one pipeline after the other, so that
   * the requests of the API are not queued behind all of them; undefined for a key of another type.
   */
  async function readHashes(
    found: readonly string[],
    fields: readonly string[],
  ): Promise<Array<Array<string | null> | undefined>> {
    const replies: Array<Array<string | null> | undefined> = [];
    for (let start = 0; start < found.length; start += READ_BATCH) {
      const pipeline = redis.pipeline();
      for (const key of found.slice(start, start + READ_BATCH)) pipeline.hmget(key, ...fields);
      for (const [error, value] of (await read(() => pipeline.exec())) ?? []) {
        if (error === null) replies.push(value as Array<string | null>);
        else if (error.message.startsWith('WRONGTYPE')) replies.push(undefined);
        else throw new StoreUnavailableError(`Redis at ${target.display} ${failure(error).reason}`);
      }
    }
    return replies;
  }

  async function allCodes(): Promise<OtpCode[]> {
    const found = await someKeys(codePattern);
    const replies = await readHashes(found, CODE_FIELDS);
    return replies.flatMap((fields) => {
      const code = fields === undefined ? undefined : readCode(fields);
      return code === undefined ? [] : [code];
    });
  }

  const bucketOf = (redisKey: string) =>
    redisKey.slice(`${prefix}:bucket:{`.length, redisKey.endsWith('}') ? -1 : undefined);

  /** The buckets of the first {@link MAX_LISTED_KEYS} keys with their state, and Redis's time. */
  async function allBuckets(): Promise<{ entries: Array<[string, StoredBucket]>; now: number }> {
    const found = await someKeys(bucketPattern);
    const replies = await readHashes(found, BUCKET_FIELDS);
    const now = await read(() => redis.uasNow(manualNow(), ''));
    const entries: Array<[string, StoredBucket]> = [];
    found.forEach((key, index) => {
      const fields = replies[index];
      const bucket = fields === undefined ? undefined : readBucket(fields);
      if (bucket !== undefined) entries.push([bucketOf(key), bucket]);
    });
    return { entries, now: Number(now) };
  }

  /**
   * Keeps the bucket keys of each level a live change made slower to fill (`before` is the live
   * change in force until then) at least as long as an empty bucket of it now takes to fill: a
   * key that expired sooner would bring its bucket back full. Every key, a scan at a time.
   */
  async function keepBucketsRefilling(before: LiveChange | undefined, after: LiveChange) {
    for (const { level, fillMs } of refilledLevels(before, after)) {
      const ttl = Math.min(BUCKET_MOST_TTL_MS, Math.max(Number(leastTtl), Math.ceil(fillMs)));
      for await (const batch of scan(`${prefix}:bucket:{${level}:*`))
        await Promise.all(batch.map((key) => redis.uasKeep(key, String(ttl))));
    }
  }

  /** Unlinks every key matching a pattern (none is left out: no cap here), a scan at a time. */
  async function unlinkAll(pattern: string): Promise<void> {
    for await (const batch of scan(pattern))
      if (batch.length > 0) await command(() => redis.unlink(...batch));
  }

  return {
    kind: 'shared',
    ledger,
    codes,
    channel,
    target: target.display,
    prefix,
    onError,
    get healthy() {
      return healthy;
    },
    get failedOpen() {
      return failedOpen;
    },
    health: () => ({ up: healthy, failedOpen }),
    joined,
    clock,
    async listBuckets(query, config: ResolvedConfig) {
      const { entries, now } = await allBuckets();
      return pageOfBuckets(entries, query, config, now);
    },
    async getBucket(key, config) {
      const [now, fields] = await read(() =>
        Promise.all([redis.uasNow(manualNow(), ''), fieldsOf(keys.bucket(key), BUCKET_FIELDS)]),
      );
      const bucket = readBucket(fields);
      return bucket === undefined
        ? undefined
        : viewBucket(key, bucket, config.limits[levelOf(key)], Number(now));
    },
    async resetBuckets(key) {
      if (key !== undefined) return (await command(() => redis.del(keys.bucket(key)))) > 0;
      await unlinkAll(bucketPattern);
      return true;
    },
    async counts(): Promise<BucketCounts> {
      let client = 0;
      let caller = 0;
      for (const [key] of (await allBuckets()).entries)
        if (levelOf(key) === 'client') client++;
        else caller++;
      return { client, caller, evictions: 0 };
    },
    now: () => command(() => redis.uasNow(manualNow(), '')).then(Number),
    useConfig() {
      // Each take carries the limits in force; nothing here depends on the config.
    },
    async clear() {
      await unlinkAll(bucketPattern);
      await unlinkAll(codePattern);
      // Written anew, whatever they held: a reset repairs a uas:meta or uas:users that something
      // other than uas wrote (each its own command: the two keys may be in different slots).
      await command(() => redis.del(keys.users));
      await command(async () => {
        for (const [error] of (await redis
          .multi()
          .del(keys.meta)
          .hset(keys.meta, 'base', base)
          .exec()) ?? [])
          if (error) throw error;
      });
      live = undefined;
    },
    async check() {
      if (!healthy) return 'down';
      try {
        const [meta, users] = await Promise.all([
          redis.hgetall(keys.meta).catch((error: unknown) => {
            if (error instanceof Error && error.message.startsWith('WRONGTYPE')) return undefined;
            throw error;
          }),
          redis.uasUsersCheck(keys.users),
        ]);
        return meta !== undefined && isMetaSound(meta) && users === 'ok' ? 'up' : 'degraded';
      } catch {
        return 'down';
      }
    },
    async close() {
      clearInterval(watchTimer);
      clearInterval(timeTimer);
      await Promise.allSettled([subscriber.quit(), redis.quit()]);
      subscriber.disconnect();
      redis.disconnect();
    },
  };
}

const BUCKET_FIELDS = ['t', 'u', 'a', 'r', 's'] as const;
const CODE_FIELDS = ['m', 'e', 'c', 'i', 'x', 'a', 'used'] as const;

const flag = (value: boolean) => (value ? '1' : '0');

/** A bucket read from its hash; undefined when it is gone or not one of ours. */
function readBucket(fields: Array<string | null>): StoredBucket | undefined {
  const [tokens, updatedAt, ...counters] = fields;
  const [allowed, rejected, shadow] = counters.map((field) =>
    field === null || field === undefined ? 0 : wholeOf(field),
  );
  const t = numberOf(tokens);
  const u = instantOf(updatedAt);
  if (
    t === undefined ||
    u === undefined ||
    allowed === undefined ||
    rejected === undefined ||
    shadow === undefined
  )
    return undefined;
  return { tokens: t, updatedAt: u, allowed, rejected, shadowRejected: shadow };
}

/**
 * A number field as the scripts read it (`number` in redis-scripts.ts): finite and decimal, so
 * that what the scripts count as absent, a listing skips too.
 */
function numberOf(text: string | null | undefined): number | undefined {
  if (typeof text !== 'string' || !/\d/.test(text) || !/^-?\d*\.?\d*[eE]?[-+]?\d*$/.test(text))
    return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** A time as the scripts read it (`instant`): such a number that a Date can show. */
function instantOf(text: string | null | undefined): number | undefined {
  const value = numberOf(text);
  return value !== undefined && isDateTime(value) ? value : undefined;
}

/** A counter as the scripts read it (`whole`): an integer HINCRBY takes, of 15 digits at most. */
const wholeOf = (text: string | null | undefined) =>
  typeof text === 'string' && /^(?:0|-?[1-9]\d{0,14})$/.test(text) ? Number(text) : undefined;

/** A code read from its hash (merchant, e-mail, code, issued, expires, attempts, used). */
function readCode(fields: Array<string | null | undefined>): OtpCode | undefined {
  const [merchantId, email, code, issued, expires, attempts, used] = fields;
  const issuedAt = instantOf(issued);
  const expiresAt = instantOf(expires);
  const attemptsLeft = wholeOf(attempts);
  if (
    typeof merchantId !== 'string' ||
    typeof email !== 'string' ||
    typeof code !== 'string' ||
    issuedAt === undefined ||
    expiresAt === undefined ||
    attemptsLeft === undefined ||
    (used !== '0' && used !== '1')
  )
    return undefined;
  return { merchantId, email, code, issuedAt, expiresAt, attemptsLeft, used: used === '1' };
}

function verifyOutcome(reply: string[]): VerifyOutcome {
  const [result, ...fields] = reply;
  const code = readCode(fields);
  if (result === 'not-found' || code === undefined) return { result: 'not-found' };
  switch (result) {
    case 'verified':
    case 'used':
    case 'exhausted':
    case 'expired':
      return { result, code };
    default:
      return { result: 'wrong', code, attemptsLeft: code.attemptsLeft };
  }
}

/** A hash of a config that does not depend on the order of its keys (nor on its `store`). */
function fingerprint(config: unknown): string {
  const stable = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(stable);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.keys(value)
        .filter((key) => key !== 'store' && key !== '$schema')
        .sort()
        .map((key) => [key, stable((value as Record<string, unknown>)[key])]),
    );
  };
  return createHash('sha256')
    .update(JSON.stringify(stable(config)))
    .digest('hex');
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}
