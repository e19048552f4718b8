import { performance } from 'node:perf_hooks';
import type { Redis, RedisOptions } from 'ioredis';
import { errorLine, selectRefusal } from './redis-failure.js';
import type { RedisHealth } from './redis-health.js';
import { createRedisTime, type RedisTime } from './redis-time.js';
import { defineScripts, type ScriptedRedis } from './scripted-redis.js';
import type { RedisTarget } from './store-url.js';

/** How often Redis's clock is measured again, for the deadlines of scripts. */
const TIME_REFRESH_MS = 10_000;

/** The two connections of a store: commands and scripts, and the subscriber of its channels. */
export interface RedisConnections {
  redis: ScriptedRedis;
  subscriber: Redis;
}

/** What ioredis is given: fail at once while Redis is away, within `timeoutMs` otherwise. */
export function connectionOptions(target: RedisTarget, timeoutMs: number): RedisOptions {
  const { connection } = target;
  return {
    ...('path' in connection
      ? { path: connection.path, db: connection.db, password: connection.password }
      : {
          host: connection.host,
          port: connection.port,
          db: connection.db,
          username: connection.username,
          password: connection.password,
          tls: connection.tls ? {} : undefined,
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
}

/**
 * Opens the two connections, reporting to `health`, and tells `onFailure` how to close them.
 * Throws the one-line error of {@link RedisHealth.startFailure} when Redis cannot be reached.
 */
export async function openConnections(options: {
  target: RedisTarget;
  timeoutMs: number;
  health: RedisHealth;
  onFailure: (undo: () => void) => void;
}): Promise<RedisConnections> {
  const { target, health } = options;
  // ioredis is an optional peer dependency: loaded only by those who use a Redis store.
  const ioredis = await import('ioredis').catch((error: unknown) => {
    throw new Error(
      `a Redis store needs ioredis, an optional dependency of uas that is not installed here: npm install ioredis@5 (${errorLine(error)})`,
    );
  });
  // Bundled (the standalone executable), a CommonJS package's exports are its default alone.
  const RedisClient = ioredis.Redis ?? (ioredis.default as unknown as typeof ioredis).Redis;
  const redis = defineScripts(new RedisClient(connectionOptions(target, options.timeoutMs)));
  // ioredis would subscribe again by itself after a reconnect, but leaves that command's failure
  // unhandled (Redis slow or gone again meanwhile), which ends the process: done by the
  // subscription instead (redis-subscription.ts).
  const subscriber = redis.duplicate({ enableOfflineQueue: true, autoResubscribe: false });
  options.onFailure(() => {
    redis.disconnect();
    subscriber.disconnect();
  });
  const { db } = target.connection;
  // ioredis reports a lost connection as an event; without a listener it would print it.
  redis.on('connect', () => health.connecting());
  redis.on('error', (error: unknown) =>
    health.connectionError(error, refuseDatabase(redis, error, db)),
  );
  subscriber.on('error', (error: unknown) => void refuseDatabase(subscriber, error, db));
  redis.on('ready', () => health.ready());
  try {
    await redis.connect();
    await subscriber.connect();
  } catch (error) {
    throw health.startFailure(error);
  }
  return { redis, subscriber };
}

/**
 * A SELECT of the URL's database refused (`ERR DB index is out of range`) on a connection being
 * made: ioredis would go on in database 0, among other keys. The connection is dropped before it
 * is ready (and made again later, as after any loss), so that no command ever runs in another
 * database. Returns what is wrong, for people, if that was it.
 */
function refuseDatabase(client: Redis, error: unknown, db: number): string | undefined {
  const problem = selectRefusal(error, db);
  if (problem !== undefined) client.disconnect(true);
  return problem;
}

/**
 * Measures Redis's clock now, again every 10 s and after a reconnect, on the connection that
 * sends the scripts, so that each is given a deadline in Redis's time. Throws the one-line error
 * of {@link RedisHealth.startFailure} when the first measure fails.
 */
export async function keepRedisTime(
  redis: Redis,
  health: RedisHealth,
  onFailure: (undo: () => void) => void,
): Promise<RedisTime & { stop(): void }> {
  const time = createRedisTime({
    time: () => redis.time() as unknown as Promise<[string, string]>,
    monotonic: () => performance.now(),
  });
  const refresh = () => void time.refresh().catch(() => {});
  redis.on('ready', refresh);
  const timer = setInterval(refresh, TIME_REFRESH_MS);
  timer.unref();
  const stop = () => clearInterval(timer);
  onFailure(stop);
  try {
    await time.refresh();
  } catch (error) {
    throw health.startFailure(error);
  }
  return { ...time, stop };
}
