import { performance } from 'node:perf_hooks';
import type { RedisOptions } from 'ioredis';
import { clusterOptions } from './cluster-options.js';
import { errorLine, selectRefusal } from './redis-failure.js';
import type { RedisHealth } from './redis-health.js';
import { createRedisTime, type RedisTime } from './redis-time.js';
import { defineScripts, type RedisClient, type ScriptedRedis } from './scripted-redis.js';
import type { RedisTarget } from './store-url.js';

/** How often Redis's clock is measured again, for the deadlines of scripts. */
const TIME_REFRESH_MS = 10_000;

/** The two clients of a store: commands and scripts, and the subscriber of its channels. */
export interface RedisConnections {
  redis: ScriptedRedis;
  subscriber: RedisClient;
}

/** The scripts a request waits for, each sent at once rather than in an automatic pipeline. */
const ANSWERED_SCRIPTS = ['uasTake', 'uasIssue', 'uasVerify'] as const;

/** What ioredis is given: fail at once while Redis is away, within `timeoutMs` otherwise. */
export function connectionOptions(
  target: { connection: Exclude<RedisTarget['connection'], { cluster: unknown }> },
  timeoutMs: number,
): RedisOptions {
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
    // ioredis sends one automatic pipeline at a time: a script a request waits for, queued
    // behind one Redis has not answered, would start its timeout only once that one timed out
    // (twice timeoutMs while Redis is paused). Takes are batched already (take-batcher.ts).
    autoPipeliningIgnoredCommands: [...ANSWERED_SCRIPTS],
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
  const { redis, subscriber } = await createClients(target, options.timeoutMs);
  options.onFailure(() => {
    redis.disconnect();
    subscriber.disconnect();
  });
  const db = 'db' in target.connection ? target.connection.db : 0;
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

/** The clients of a target, not yet connected: of one server, or of a Redis Cluster. */
async function createClients(target: RedisTarget, timeoutMs: number): Promise<RedisConnections> {
  // ioredis is an optional peer dependency: loaded only by those who use a Redis store.
  const ioredis = await import('ioredis').catch((error: unknown) => {
    throw new Error(
      `a Redis store needs ioredis, an optional dependency of uas that is not installed here: npm install ioredis@5 (${errorLine(error)})`,
    );
  });
  // Bundled (the standalone executable), a CommonJS package's exports are its default alone.
  const { Redis: Server, Cluster } = ioredis.Redis
    ? ioredis
    : (ioredis.default as unknown as typeof ioredis);
  const { connection } = target;
  if ('cluster' in connection) {
    const options = clusterOptions(connection, timeoutMs);
    // Its subscriptions go through a connection to one node, chosen again (and subscribed
    // again) by ioredis when that node goes away; a message published on any node reaches it.
    return {
      redis: defineScripts(new Cluster(connection.cluster, options)),
      subscriber: new Cluster(connection.cluster, { ...options, enableOfflineQueue: true }),
    };
  }
  const server = new Server(connectionOptions({ connection }, timeoutMs));
  // ioredis would subscribe again by itself after a reconnect, but leaves that command's failure
  // unhandled (Redis slow or gone again meanwhile), which ends the process: done by the
  // subscription instead (redis-subscription.ts).
  const subscriber = server.duplicate({ enableOfflineQueue: true, autoResubscribe: false });
  return { redis: defineScripts(server), subscriber };
}

/**
 * A SELECT of the URL's database refused (`ERR DB index is out of range`) on a connection being
 * made: ioredis would go on in database 0, among other keys. The connection is dropped before it
 * is ready (and made again later, as after any loss), so that no command ever runs in another
 * database. Returns what is wrong, for people, if that was it.
 */
function refuseDatabase(client: RedisClient, error: unknown, db: number): string | undefined {
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
  redis: RedisClient,
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
