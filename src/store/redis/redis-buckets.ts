import { levelOf } from '../../core/limits/bucket-key.js';
import { viewBucket } from '../../core/limits/bucket-view.js';
import { pageOfBuckets, type EmulatorStore } from '../../core/store/emulator-store.js';
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
