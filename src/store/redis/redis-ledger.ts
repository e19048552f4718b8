import {
  decideTakeInto,
  type BucketLedger,
  type BucketTake,
  type BucketTaken,
  type BucketWriteSlot,
} from '../../core/limits/bucket-ledger.js';
import { LateReply } from './redis-failure.js';
import { readTakeReply } from './redis-decoders.js';
import type { RedisHealth } from './redis-health.js';
import type { RedisKeys } from './redis-keys.js';
import type { RedisListing } from './redis-listing.js';
import { pastArguments, refilledLevels, type LiveChange } from './live-change.js';
import type { ScriptedRedis, ScriptTime } from './scripted-redis.js';
import type { StoreErrorMode } from './store-modes.js';
import { createTakeBatcher } from './take-batcher.js';

/** How long a bucket key lives at least after a take: a screen still sees a bucket just refilled. */
const BUCKET_LEAST_TTL_MS = 60_000;
/** With a manual clock, time in Redis does not tell when a bucket is full: keep it a week. */
const MANUAL_LEAST_TTL_MS = 7 * 86_400_000;
/** The longest a bucket key lives: a year. */
const BUCKET_MOST_TTL_MS = 365 * 86_400_000;

/** How long a bucket key lives after a take, at least and at most, in ms. */
export interface BucketTtls {
  least: number;
  most: number;
}

/** The lives of bucket keys on Redis's clock, or on a manual clock (`manual`). */
export function bucketTtls(manual: boolean): BucketTtls {
  return { least: manual ? MANUAL_LEAST_TTL_MS : BUCKET_LEAST_TTL_MS, most: BUCKET_MOST_TTL_MS };
}

/** What the ledger and the keeping of bucket keys work with. */
export interface RedisLedgerDeps {
  redis: ScriptedRedis;
  keys: RedisKeys;
  health: RedisHealth;
  time: ScriptTime;
  ttls: BucketTtls;
}

const flag = (value: boolean) => (value ? '1' : '0');

/**
 * The buckets on Redis: the takes made together are one run of the take script (those of a turn
 * of the event loop, or of the turns while a run was out: see take-batcher.ts), on Redis's clock
 * (or the shared manual one), which returns each bucket before its take; the core's `decideTake`
 * then works out the verdict from it, as the script worked out what to write. While Redis cannot
 * be reached a take fails (`closed`: a StoreUnavailableError) or goes through as if the bucket
 * were full (`open`), counted.
 */
export function createRedisLedger(deps: RedisLedgerDeps, onError: StoreErrorMode): BucketLedger {
  const { redis, keys, health, time, ttls } = deps;
  const least = String(ttls.least);
  const most = String(ttls.most);
  const sendTake = createTakeBatcher(redis, { oneBucketARun: redis.isCluster });
  // What a take would write, which the script wrote already: filled and not read.
  const slot: BucketWriteSlot = { tokens: 0, updatedAt: 0, count: undefined, wanted: false };
  return {
    take(request: BucketTake) {
      const { policy } = request;
      const failed = (error: unknown): BucketTaken => {
        const refused = health.refusal(error);
        if (onError === 'closed') throw refused;
        // Open: as if the bucket were full, so that nobody is refused while Redis is away.
        health.failedOpen();
        const taken = decideTakeInto(undefined, request, slot);
        taken.failedOpen = true;
        return taken;
      };
      return sendTake(keys.bucket(request.key), time.manualNow(), time.deadline(), [
        String(policy.burst),
        String(policy.refillPerMs),
        String(request.cost),
        request.mode,
        flag(request.shadow),
        flag(request.valid),
        flag(request.countInvalid),
        least,
        most,
        ...pastArguments(policy.past),
      ]).then((reply) => {
        if (reply === 'late') return failed(new LateReply('late'));
        health.markUp();
        const { stored, now } = readTakeReply(reply);
        return decideTakeInto(stored, request, slot, now);
      }, failed);
    },
  };
}

/**
 * Keeps the bucket keys of each level a live change made slower to fill (`before` is the live
 * change in force until then) at least as long as an empty bucket of it now takes to fill: a
 * key that expired sooner would bring its bucket back full. Every key, a scan at a time.
 */
export async function keepBucketsRefilling(
  deps: RedisLedgerDeps & { listing: RedisListing },
  before: LiveChange | undefined,
  after: LiveChange,
): Promise<void> {
  const { redis, keys, listing, ttls } = deps;
  for (const { level, fillMs } of refilledLevels(before, after)) {
    const ttl = Math.min(ttls.most, Math.max(ttls.least, Math.ceil(fillMs)));
    for await (const batch of listing.scan(keys.buckets(level)))
      await Promise.all(batch.map((key) => redis.uasKeep(key, String(ttl))));
  }
}
