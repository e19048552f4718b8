import { latestCode } from '../../core/signin/latest-code.js';
import type { OtpStore } from '../../core/signin/otp-codes.js';
import { onTime } from './redis-failure.js';
import { CODE_FIELDS, readCode, readVerifyReply } from './redis-decoders.js';
import type { RedisHealth } from './redis-health.js';
import type { RedisKeys } from './redis-keys.js';
import type { RedisListing } from './redis-listing.js';
import type { ScriptedRedis, ScriptTime } from './scripted-redis.js';

/** How long a code is kept past its expiry, so that a late try is told "expired". */
const CODE_KEEP_MS = 86_400_000;

/** Code keys unlinked at once when a user is removed. */
const FORGET_BATCH = 1000;

/**
 * The one-time codes on Redis: one hash per merchant and e-mail (the core's code key), issued
 * and checked each by one atomic script on Redis's clock (or the shared manual one), the check
 * deciding as the core's `decideVerify` does. Every call needs Redis (no failing open).
 */
export function createRedisCodes(deps: {
  redis: ScriptedRedis;
  keys: RedisKeys;
  health: RedisHealth;
  time: ScriptTime;
  listing: RedisListing;
}): OtpStore<'async'> {
  const { redis, keys, health, time, listing } = deps;
  return {
    async issue(merchantId, email, code, _now, ttlMs, maxAttempts) {
      const issuedAt = Number(
        await health.command(() =>
          redis
            .uasIssue(
              keys.code(merchantId, email),
              time.manualNow(),
              time.deadline(),
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
      const expiresAt = issuedAt + ttlMs;
      return {
        merchantId,
        email,
        code,
        issuedAt,
        expiresAt,
        attemptsLeft: maxAttempts,
        used: false,
      };
    },
    async verify(merchantId, email, candidate) {
      const reply = await health.command(() =>
        redis
          .uasVerify(keys.code(merchantId, email), time.manualNow(), time.deadline(), candidate)
          .then(onTime),
      );
      return readVerifyReply(reply);
    },
    async latest(email, merchantId) {
      if (merchantId === undefined) return latestCode(await listing.codes(), email);
      const key = keys.code(merchantId, email);
      return readCode(await health.read(() => listing.fieldsOf(key, CODE_FIELDS)));
    },
    list: () => listing.codes(),
    async forget(email, merchantIds) {
      // A key a command (each is in a slot of its own on a cluster), a thousand at a time.
      let dropped = 0;
      for (let start = 0; start < merchantIds.length; start += FORGET_BATCH) {
        const batch = merchantIds.slice(start, start + FORGET_BATCH);
        const counts = await health.command(() =>
          Promise.all(batch.map((merchantId) => redis.unlink(keys.code(merchantId, email)))),
        );
        for (const count of counts) dropped += count;
      }
      return dropped;
    },
  };
}
