import type { Level } from '../../core/limits/bucket-key.js';
import { otpCodeKey } from '../../core/signin/otp-code-key.js';

/**
 * The keys and channels of one prefix, made here and nowhere else. Each bucket and each code is
 * one key of its own under a hash tag (`{…}`), so that a Redis Cluster can place each anywhere.
 */
export interface RedisKeys {
  readonly prefix: string;
  /** The hash of a bucket, by its key in the core (`client:demo`). */
  bucket(key: string): string;
  /** The hash of the code of a merchant and an e-mail (the core's code key, in the tag). */
  code(merchantId: string, email: string): string;
  /** The fingerprint of the config the instances started with, and the live change in force. */
  readonly meta: string;
  /** The users added and removed live, in order: a list of JSON arrays, a batch added or `["remove", email]`. */
  readonly users: string;
  /** The shared manual clock, and the time it started at. */
  readonly clock: string;
  readonly clockStart: string;
  /** The channels of live changes, and of events. */
  readonly changes: string;
  readonly events: string;
  /** The pattern of every bucket key, or of the bucket keys of one level. */
  buckets(level?: Level): string;
  /** The pattern of every code key. */
  readonly codes: string;
  /** The bucket key in the core of a key matched by {@link buckets}. */
  bucketOf(redisKey: string): string;
}

const PREFIX = /^[A-Za-z0-9_.-]{1,64}$/;

/** The keys of `prefix`; throws an Error naming what a prefix may hold, for any other. */
export function createRedisKeys(prefix: string): RedisKeys {
  if (!PREFIX.test(prefix))
    throw new Error(
      `invalid store prefix ${JSON.stringify(prefix)}: expected 1 to 64 letters, digits, "_", "." or "-"`,
    );
  const bucketStart = `${prefix}:bucket:{`;
  return {
    prefix,
    bucket: (key) => `${bucketStart}${key}}`,
    code: (merchantId, email) => `${prefix}:code:{${otpCodeKey(merchantId, email)}}`,
    meta: `${prefix}:meta`,
    users: `${prefix}:users`,
    clock: `${prefix}:clock`,
    clockStart: `${prefix}:clock-start`,
    changes: `${prefix}:changes`,
    events: `${prefix}:events`,
    buckets: (level) => (level === undefined ? `${prefix}:bucket:*` : `${bucketStart}${level}:*`),
    codes: `${prefix}:code:*`,
    bucketOf: (redisKey) =>
      redisKey.slice(bucketStart.length, redisKey.endsWith('}') ? -1 : undefined),
  };
}
