import type { Level } from './bucket-key.js';
import type { HeaderStyle } from '../config/config-schema.js';
import type { LevelLimits } from '../config/config.js';
import type { BucketDecision } from './token-bucket.js';

/** The header that names the bucket a request was counted in. Sent in every header style. */
export const BUCKET_HEADER = 'uas-bucket';

/**
 * Writes the rate-limit fields of a decision into `headers` in the given style.
 *
 * A token bucket is described to clients as a quota of `burst` requests over the time the bucket
 * takes to refill from empty (`w`); the reset (`t`) is the number of seconds until the next token,
 * or until the request can pass when it was rejected.
 */
export function writeRateLimitHeaders(
  headers: Record<string, string>,
  style: HeaderStyle,
  level: Level,
  limits: LevelLimits,
  decision: BucketDecision,
  resetSeconds: number,
): void {
  if (style === 'none') return;
  // From the rate as written: through refillPerMs, 5 tokens at 1/11s took 55.00000000000001 s.
  // At least 1: a bucket that fills within a nanosecond (1 token at 1000000000/s) is no w=0.
  const windowSeconds = Math.max(
    1,
    secondsUp((limits.burst * limits.rate.windowMs) / limits.rate.tokens),
  );
  const remaining = String(decision.remaining);
  const reset = String(resetSeconds);
  switch (style) {
    case 'draft-10':
      headers['ratelimit-policy'] = `"${level}";q=${limits.burst};w=${windowSeconds}`;
      headers['ratelimit'] = `"${level}";r=${remaining};t=${reset}`;
      return;
    case 'draft-7':
      headers['ratelimit-policy'] = `${limits.burst};w=${windowSeconds}`;
      headers['ratelimit'] = `limit=${limits.burst}, remaining=${remaining}, reset=${reset}`;
      return;
    case 'draft-6':
      headers['ratelimit-policy'] = `${limits.burst};w=${windowSeconds}`;
      headers['ratelimit-limit'] = String(limits.burst);
      headers['ratelimit-remaining'] = remaining;
      headers['ratelimit-reset'] = reset;
      return;
    case 'x-ratelimit':
      headers['x-ratelimit-limit'] = String(limits.burst);
      headers['x-ratelimit-remaining'] = remaining;
      headers['x-ratelimit-reset'] = reset;
      return;
  }
}

/** Whole seconds, rounded up, so a client that waits them never comes back too early. */
export function secondsUp(milliseconds: number): number {
  return Math.ceil(milliseconds / 1000 - 1e-9);
}

/**
 * Whole milliseconds, rounded up, less the rounding error of a division by a refill rate: a token
 * at 1/h is 3600000.0000000005 ms away, which is 3600000 (the bucket holds it then).
 */
export function millisecondsUp(milliseconds: number): number {
  return Math.max(0, Math.ceil(milliseconds - Math.max(1e-6, milliseconds * 1e-15)));
}
