import type { EmbeddedRedis } from '../../store/redis/embedded-redis.js';
import type { RedisStore, StoreErrorMode, StoreStatus } from '../../store/redis/redis-store.js';
import { CliError, EXIT } from '../io.js';
import { importOptional } from '../optional-import.js';

/** Where `uas serve` keeps buckets and codes: the config's `store`, with the flags over it. */
export interface StoreSpec {
  /** `memory`, `redis` (a local redis-server started for it), or a Redis URL. */
  url: string;
  prefix?: string | undefined;
  onError?: StoreErrorMode | undefined;
  timeoutMs?: number | undefined;
}

/** The store a config asks for (memory when it asks for none). */
export function storeSpec(config: Record<string, unknown>): StoreSpec {
  const store = config.store as StoreSpec | undefined;
  return store ?? { url: 'memory' };
}

/** A shared store `uas serve` opened, and what it started for it. */
export interface OpenedStore {
  store: RedisStore;
  /** The redis-server started for `--store redis`, if it was. */
  embedded: EmbeddedRedis | undefined;
  close(): Promise<void>;
}

/** Starts the redis-server of `--store redis` (no URL). */
export async function startLocalRedis(): Promise<EmbeddedRedis> {
  const { startEmbeddedRedis, EmbeddedRedisError } =
    await import('../../store/redis/embedded-redis.js');
  try {
    return await startEmbeddedRedis();
  } catch (error) {
    if (error instanceof EmbeddedRedisError && error.missing)
      throw new CliError(
        '--store redis starts a local redis-server, and none is installed (apt-get install redis-server, brew install redis); or give the URL of one: --store redis://host:6379',
        EXIT.usage,
      );
    throw new CliError(`--store redis: ${(error as Error).message}`, EXIT.failure);
  }
}

/**
 * Connects the Redis store of `spec` (starting a local redis-server for `redis`, unless `url`
 * names one already started), or returns undefined for the memory store. A Redis that cannot be
 * reached is a one-line error (exit 1); a bad URL is a usage error.
 */
export async function openStore(
  spec: StoreSpec,
  options: {
    config: unknown;
    /** Overrides `spec.url` (a worker connects to the Redis its primary started). */
    url?: string | undefined;
    /** Where `spec.url` came from, as a bad one is named: `--store` (default), or the config. */
    from?: string | undefined;
    manualClock?: { startMs: number } | undefined;
    onStatus(status: StoreStatus, target: string): void;
    onWarning(message: string): void;
  },
): Promise<OpenedStore | undefined> {
  if (spec.url === 'memory' && options.url === undefined) return undefined;
  await importOptional(() => import('ioredis'), 'redis', '--store with Redis');
  const embedded =
    options.url === undefined && spec.url === 'redis' ? await startLocalRedis() : undefined;
  const url = options.url ?? embedded?.url ?? spec.url;
  const [{ connectRedisStore }, { parseRedisUrl }] = await Promise.all([
    import('../../store/redis/redis-store.js'),
    import('../../store/redis/store-url.js'),
  ]);
  let target: string;
  try {
    target = parseRedisUrl(url).display;
  } catch (error) {
    await embedded?.stop();
    throw new CliError(
      `invalid ${options.from ?? '--store'}: ${(error as Error).message}`,
      EXIT.usage,
    );
  }
  let store: RedisStore;
  try {
    store = await connectRedisStore({
      url,
      prefix: spec.prefix,
      onError: spec.onError,
      timeoutMs: spec.timeoutMs,
      config: options.config,
      manualClock: options.manualClock,
      onStatus: (status) => options.onStatus(status, target),
      onWarning: options.onWarning,
    });
  } catch (error) {
    await embedded?.stop();
    throw new CliError((error as Error).message, EXIT.failure);
  }
  return {
    store,
    embedded,
    async close() {
      await store.close();
      await embedded?.stop();
    },
  };
}

/** What `uas serve` says when the store goes away or comes back. */
export function describeStoreStatus(
  status: StoreStatus,
  target: string,
  mode: StoreErrorMode,
): string {
  if (status.state === 'up') return `store: Redis at ${target} is reachable again`;
  const answer =
    mode === 'closed'
      ? 'requests get 503 store-unavailable'
      : 'bucket decisions let requests through (--on-store-error open); start and verify get 503';
  return `store: Redis at ${target} is unreachable (${status.error}); ${answer} until it is back`;
}

/** Where the store's URL came from, as an error names it: `--store`, or the config's field. */
export function storeSource(flags: { store?: string | undefined }): string {
  return flags.store === undefined ? 'store.url of the config' : '--store';
}
