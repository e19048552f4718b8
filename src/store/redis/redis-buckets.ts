import { levelOf } from '../../core/limits/bucket-key.js';
import { viewBucket, type BucketView } from '../../core/limits/bucket-view.js';
import {
  matchesBucketQuery,
  pageOfBuckets,
  type BucketQuery,
  type EmulatorStore,
} from '../../core/store/emulator-store.js';
import type { ResolvedConfig } from '../../core/config/config.js';
import { BUCKET_FIELDS, readBucket } from './redis-decoders.js';
import type { RedisHealth } from './redis-health.js';
import type { RedisKeys } from './redis-keys.js';
import type { RedisListing } from './redis-listing.js';
import type { ScriptedRedis, ScriptTime } from './scripted-redis.js';

/** What the dev API and the metrics ask of the buckets. */
export type BucketQueries = Pick<
  EmulatorStore,
  'listBuckets' | 'getBucket' | 'resetBuckets' | 'counts'
>;

/**
 * The buckets on Redis as the dev API and the metrics see them, each on Redis's time (or the
 * shared manual one) rather than the emulator's: a listing and a count read the first 10,000
 * bucket keys; a reset of every bucket unlinks every key.
 */
export function createRedisBuckets(deps: {
  redis: ScriptedRedis;
  keys: RedisKeys;
  health: RedisHealth;
  time: ScriptTime;
  listing: RedisListing;
}): BucketQueries {
  const { redis, keys, health, listing } = deps;
  return {
    async listBuckets(query, config) {
      if (query.sort === 'key') return pageByKey(deps, query, config);
      const { entries, now } = await listing.buckets();
      return pageOfBuckets(entries, query, config, now);
    },
    async getBucket(key, config) {
      const [now, fields] = await health.read(() =>
        Promise.all([
          redis.uasNow(deps.time.manualNow(), ''),
          listing.fieldsOf(keys.bucket(key), BUCKET_FIELDS),
        ]),
      );
      const bucket = readBucket(fields);
      return bucket === undefined
        ? undefined
        : viewBucket(key, bucket, config.limits[levelOf(key)], Number(now));
    },
    async resetBuckets(key) {
      if (key !== undefined) return (await health.command(() => redis.del(keys.bucket(key)))) > 0;
      await listing.unlinkAll(keys.buckets());
      return true;
    },
    async counts() {
      let client = 0;
      let caller = 0;
      for (const [key] of (await listing.buckets()).entries)
        if (levelOf(key) === 'client') client++;
        else caller++;
      return { client, caller, evictions: 0 };
    },
  };
}

/**
 * A page of buckets in key order, from every bucket key (not the first 10,000 of a listing in
 * another order): the keys' names are scanned, those the query lists counted, and only the page's
 * buckets read. A walk by `after` so reaches every bucket, however many there are.
 */
async function pageByKey(
  deps: { keys: RedisKeys; listing: RedisListing },
  query: BucketQuery,
  config: ResolvedConfig,
): Promise<{ total: number; buckets: BucketView[] }> {
  const { keys, listing } = deps;
  const wanted = (query.offset ?? 0) + (query.limit ?? 100);
  const seen = new Set<string>();
  // The first `wanted` keys in order, kept sorted: a page holds at most 1,000 past its offset.
  const first: string[] = [];
  for await (const batch of listing.scan(keys.buckets()))
    for (const name of batch) {
      const key = keys.bucketOf(name);
      // A scan may give a key twice.
      if (seen.has(key) || !matchesBucketQuery(key, query)) continue;
      seen.add(key);
      if (first.length === wanted && key >= first[wanted - 1]!) continue;
      first.splice(sortedIndex(first, key), 0, key);
      if (first.length > wanted) first.pop();
    }
  const page = first.slice(query.offset ?? 0);
  const { entries, now } = await listing.bucketsOf(page.map((key) => keys.bucket(key)));
  const buckets = entries.map(([key, bucket]) =>
    viewBucket(key, bucket, config.limits[levelOf(key)], now),
  );
  return { total: seen.size, buckets };
}

/** Where `key` goes in the sorted `keys`. */
function sortedIndex(keys: readonly string[], key: string): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (keys[middle]! < key) low = middle + 1;
    else high = middle;
  }
  return low;
}
