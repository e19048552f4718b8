import { randomUUID } from 'node:crypto';
import type { EmulatorStore, StoreChannel } from '../../core/store/emulator-store.js';
import type { ManualClock } from '../../core/time/clock.js';
import { applyConfigPatch } from '../../core/config/config.js';
import type { ConfigFile } from '../../core/config/config-schema.js';
import { checkRedisStore } from './check-redis-store.js';
import {
  configFingerprint,
  joinPrefix,
  resetPrefix,
  seedMeta,
  type PrefixState,
} from './prefix-join.js';
import { createRedisBuckets } from './redis-buckets.js';
import { createRedisChannel, type RedisChannel } from './redis-channel.js';
import { connectSharedClock } from './redis-clock.js';
import { createRedisCodes } from './redis-codes.js';
import { keepRedisTime, openConnections } from './redis-connection.js';
import { createRedisHealth, type RedisHealth } from './redis-health.js';
import type { StoreErrorMode, StoreStatus } from './store-modes.js';
import { createRedisKeys, type RedisKeys } from './redis-keys.js';
import {
  bucketTtls,
  createRedisLedger,
  keepBucketsRefilling,
  type BucketTtls,
} from './redis-ledger.js';
import { createRedisListing, type RedisListing } from './redis-listing.js';
import {
  createPublisher,
  subscribeToChannels,
  type ChannelState,
  type Publish,
} from './redis-pubsub.js';
import type { ScriptedRedis, ScriptTime } from './scripted-redis.js';
import type { SharedClock } from './shared-clock.js';
import { parseRedisUrl, type RedisTarget } from './store-url.js';
import type { RedisClient } from './scripted-redis.js';

export type { StoreErrorMode, StoreStatus } from './store-modes.js';

/** Options of {@link connectRedisStore}. */
export interface RedisStoreOptions {
  /**
   * `redis://[user:password@]host[:port][/db]`, `rediss://…` (TLS), `unix:///path/to/redis.sock`,
   * or a Redis Cluster: `redis://host:port?cluster=1&seed=host:port…` (`rediss://` alike).
   */
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
  /**
   * How often to read the live state Redis keeps (live change, users), whatever was heard: a
   * change whose message this instance missed is taken within this time.
   * @default 5000
   */
  catchUpEveryMs?: number | undefined;
}

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

/** What a store is made of, once connected and joined: the parts its modules share. */
interface StoreParts {
  options: RedisStoreOptions;
  target: RedisTarget;
  keys: RedisKeys;
  health: RedisHealth;
  redis: ScriptedRedis;
  subscriber: RedisClient;
  prefix: PrefixState;
  clock: SharedClock | undefined;
  time: ScriptTime;
  /** Stops measuring Redis's clock. */
  stopTime(): void;
  /** This instance's id on the channels. */
  instance: string;
  publish: Publish;
  listing: RedisListing;
  ttls: BucketTtls;
}

/** {@link connectRedisStore}, telling `onFailure` how to undo each thing it opens. */
async function openRedisStore(
  options: RedisStoreOptions,
  onFailure: (undo: () => void) => void,
): Promise<RedisStore> {
  const target = parseRedisUrl(options.url);
  const keys = createRedisKeys(options.prefix ?? 'uas');
  const timeoutMs = options.timeoutMs ?? 1000;
  const health = createRedisHealth({
    display: target.display,
    timeoutMs,
    onStatus: options.onStatus,
  });
  const { redis, subscriber } = await openConnections({ target, timeoutMs, health, onFailure });
  const redisTime = await keepRedisTime(redis, health, onFailure);
  health.connected();
  // The config this instance started with decides whether it joins the live state it finds.
  const base = configFingerprint(options.config, options.manualClock !== undefined);
  const liveApplies = (live: unknown) => appliesTo(options.config, live);
  const prefix = await joinPrefix({
    ...{ redis, keys, health, base, liveApplies },
    display: target.display,
  });
  redis.on('ready', () => void seedMeta(redis, keys, prefix).catch(() => {}));
  const instance = randomUUID();
  const publish = createPublisher(redis, instance);
  const clock =
    options.manualClock === undefined
      ? undefined
      : await connectSharedClock({
          redis,
          keys,
          health,
          publish,
          startMs: options.manualClock.startMs,
        });
  const time: ScriptTime = {
    manualNow: () => (clock === undefined ? '' : String(clock.now())),
    deadline: () => redisTime.deadline(timeoutMs),
  };
  const parts: StoreParts = {
    ...{ options, target, keys, health, redis, subscriber, prefix, clock, time, instance, publish },
    stopTime: redisTime.stop,
    listing: createRedisListing({ redis, keys, health, time }),
    ttls: bucketTtls(clock !== undefined),
  };
  return assembleStore(parts, await openChannel(parts, onFailure));
}

/** The channel of the store, subscribed: what the other instances send is heard from now on. */
async function openChannel(
  parts: StoreParts,
  onFailure: (undo: () => void) => void,
): Promise<RedisChannel> {
  const { subscriber, keys, instance, options } = parts;
  const state: ChannelState = { apply: undefined, readersHere: false, othersWatching: false };
  const channel = createRedisChannel({
    ...parts,
    state,
    keepBucketsRefilling: (before, after) => keepBucketsRefilling(parts, before, after),
    onWarning: options.onWarning,
    watchIntervalMs: options.watchIntervalMs ?? 1000,
    catchUpEveryMs: options.catchUpEveryMs ?? 5000,
  });
  onFailure(channel.stop);
  await subscribeToChannels({
    subscriber,
    keys,
    instance,
    state,
    heard: channel.heard,
    resubscribed: () => void channel.catchUp().catch(() => {}),
  });
  return channel;
}

/** The store of its parts. */
function assembleStore(parts: StoreParts, pubsub: RedisChannel): RedisStore {
  const { options, redis, subscriber, keys, health, prefix, listing } = parts;
  const onError = options.onError ?? 'closed';
  return {
    kind: 'shared',
    ledger: createRedisLedger(parts, onError),
    codes: createRedisCodes(parts),
    channel: pubsub.channel,
    target: parts.target.display,
    prefix: keys.prefix,
    onError,
    get healthy() {
      return health.state.healthy;
    },
    get failedOpen() {
      return health.state.failedOpen;
    },
    health: () => ({ up: health.state.healthy, failedOpen: health.state.failedOpen }),
    joined: prefix.joined,
    clock: parts.clock,
    ...createRedisBuckets(parts),
    now: listing.now,
    useConfig() {
      // Each take carries the limits in force; nothing here depends on the config.
    },
    async clear() {
      await listing.unlinkAll(keys.buckets());
      await listing.unlinkAll(keys.codes);
      await resetPrefix(redis, keys, health, prefix);
    },
    check: () =>
      checkRedisStore(redis, keys, health.state.healthy, (live) => appliesTo(options.config, live)),
    async close() {
      pubsub.stop();
      parts.stopTime();
      await Promise.allSettled([subscriber.quit(), redis.quit()]);
      subscriber.disconnect();
      redis.disconnect();
    },
  };
}

/** Whether the parts of a live change make a valid config of `config` (the one started with). */
function appliesTo(config: unknown, live: unknown): boolean {
  try {
    applyConfigPatch(config as ConfigFile, live);
    return true;
  } catch {
    return false;
  }
}
