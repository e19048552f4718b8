import type { StoredBucket } from '../../core/limits/bucket-store.js';
import type { OtpCode } from '../../core/signin/otp-codes.js';
import { BUCKET_FIELDS, CODE_FIELDS, readBucket, readCode } from './redis-decoders.js';
import type { RedisHealth } from './redis-health.js';
import type { RedisKeys } from './redis-keys.js';
import { mastersOf } from './redis-nodes.js';
import type { ScriptedRedis, ScriptTime } from './scripted-redis.js';

/** Keys read per scan. */
const SCAN_COUNT = 1000;
/**
 * The most keys a listing reads (the buckets or codes of the dev API, the counts of the
 * metrics): enough for any test, and read well within a command's time on a loaded Redis.
 */
export const MAX_LISTED_KEYS = 10_000;
/** Hashes read at once by a listing (one pipeline on one server). */
const READ_BATCH = 1000;

/** Reads of many keys: the listings of the dev API and the metrics, and the scans behind them. */
export interface RedisListing {
  /**
   * The keys matching a pattern, a scan at a time (a scan may repeat one): on a cluster, every
   * master's in turn.
   */
  scan(pattern: string): AsyncGenerator<string[]>;
  /** The fields of one hash; all null when its key holds another type (written by another). */
  fieldsOf(key: string, fields: readonly string[]): Promise<Array<string | null>>;
  /** The codes of the first {@link MAX_LISTED_KEYS} code keys. */
  codes(): Promise<OtpCode[]>;
  /** The buckets of the first {@link MAX_LISTED_KEYS} bucket keys, and Redis's time. */
  buckets(): Promise<{ entries: Array<[string, StoredBucket]>; now: number }>;
  /** The buckets of these Redis keys (a key that holds no bucket left out), and Redis's time. */
  bucketsOf(
    found: readonly string[],
  ): Promise<{ entries: Array<[string, StoredBucket]>; now: number }>;
  /** The store's time: Redis's clock, or the shared manual one. */
  now(): Promise<number>;
  /** Unlinks every key matching a pattern (none is left out: no cap here), a scan at a time. */
  unlinkAll(pattern: string): Promise<void>;
}

/** The listings of a store. Every read fails as a StoreUnavailableError, saying nothing of health. */
export function createRedisListing(deps: {
  redis: ScriptedRedis;
  keys: RedisKeys;
  health: RedisHealth;
  time: ScriptTime;
}): RedisListing {
  const { redis, keys, health } = deps;

  async function* scan(pattern: string): AsyncGenerator<string[]> {
    for (const server of mastersOf(redis)) {
      let cursor = '0';
      do {
        const [next, batch] = await health.read(() =>
          server.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT),
        );
        cursor = next;
        yield batch;
      } while (cursor !== '0');
    }
  }

  async function someKeys(pattern: string): Promise<string[]> {
    const found = new Set<string>();
    for await (const batch of scan(pattern))
      for (const key of batch) {
        if (found.size === MAX_LISTED_KEYS) return [...found];
        found.add(key);
      }
    return [...found];
  }

  const readHashes = (found: readonly string[], fields: readonly string[]) =>
    health.read(() => readHashesInTurn(redis, found, fields));

  async function bucketsOf(found: readonly string[]) {
    const replies = await readHashes(found, BUCKET_FIELDS);
    const now = await health.read(() => redis.uasNow(deps.time.manualNow(), ''));
    const entries: Array<[string, StoredBucket]> = [];
    found.forEach((key, index) => {
      const fields = replies[index];
      const bucket = fields === undefined ? undefined : readBucket(fields);
      if (bucket !== undefined) entries.push([keys.bucketOf(key), bucket]);
    });
    return { entries, now: Number(now) };
  }

  return {
    scan,
    fieldsOf: (key, fields) => fieldsOf(redis, key, fields),
    async codes() {
      const replies = await readHashes(await someKeys(keys.codes), CODE_FIELDS);
      return replies.flatMap((fields) => {
        const code = fields === undefined ? undefined : readCode(fields);
        return code === undefined ? [] : [code];
      });
    },
    buckets: async () => bucketsOf(await someKeys(keys.buckets())),
    bucketsOf,
    now: () => health.command(() => redis.uasNow(deps.time.manualNow(), '')).then(Number),
    async unlinkAll(pattern) {
      // A key a command: on a cluster, the keys of one scan are in many slots.
      for await (const batch of scan(pattern))
        await health.command(() => Promise.all(batch.map((key) => redis.unlink(key))));
    },
  };
}

/** The fields of one hash; all null when its key holds another type (written by another). */
function fieldsOf(
  redis: ScriptedRedis,
  key: string,
  fields: readonly string[],
): Promise<Array<string | null>> {
  return redis.hmget(key, ...fields).catch((error: unknown) => {
    if (error instanceof Error && error.message.startsWith('WRONGTYPE'))
      return fields.map(() => null);
    throw error;
  });
}

/**
 * The fields of hashes, {@link READ_BATCH} at once (one pipeline on one server, made by ioredis's
 * automatic pipelining; on a cluster, each to the master of its key), one batch after the other,
 * so that the requests of the API are not queued behind all of them; undefined for a key of
 * another type. Throws the first other error.
 */
async function readHashesInTurn(
  redis: ScriptedRedis,
  found: readonly string[],
  fields: readonly string[],
): Promise<Array<Array<string | null> | undefined>> {
  const replies: Array<Array<string | null> | undefined> = [];
  for (let start = 0; start < found.length; start += READ_BATCH) {
    const batch = found.slice(start, start + READ_BATCH).map((key) =>
      redis.hmget(key, ...fields).catch((error: unknown) => {
        if (error instanceof Error && error.message.startsWith('WRONGTYPE')) return undefined;
        throw error;
      }),
    );
    replies.push(...(await Promise.all(batch)));
  }
  return replies;
}
