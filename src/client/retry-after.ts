import { parseHttpDate } from '../core/time/http-date.js';

export { parseHttpDate } from '../core/time/http-date.js';

/** A `Retry-After` field as sent, and as understood. */
export interface RetryAfter {
  /** The field value as the server sent it (untrusted text: escape it before printing). */
  value: string;
  /**
   * Milliseconds to wait, counted from when the answer came: delay-seconds, or an HTTP date less
   * that moment (0 when the date has passed). Undefined when the value is neither.
   */
  delayMs: number | undefined;
  /** Which form the value had. */
  form: 'seconds' | 'date' | 'unreadable';
}

/**
 * The largest delay-seconds taken as it is; larger values count as this one (2^31 s, about 68
 * years), as RFC 9111 section 1.2.2 tells caches to do with delta-seconds that overflow. A date
 * further away than this counts as this far.
 */
export const MAX_RETRY_AFTER_SECONDS = 2 ** 31;

/**
 * Reads `Retry-After` (RFC 9110 section 10.2.3): delay-seconds (digits only) or an HTTP date, as
 * milliseconds from `now`. Undefined when absent or unreadable: a negative number, a fraction,
 * junk, or a date in none of the three HTTP forms. Always finite and never negative.
 */
export function readRetryAfter(value: string | null, now: number): number | undefined {
  return value === null ? undefined : understandRetryAfter(value, now).delayMs;
}

/** Reads a `Retry-After` value into what was sent and what it means; see {@link readRetryAfter}. */
export function understandRetryAfter(value: string, now: number): RetryAfter {
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const seconds = Math.min(Number(text), MAX_RETRY_AFTER_SECONDS);
    return { value, delayMs: seconds * 1000, form: 'seconds' };
  }
  const date = parseHttpDate(text);
  if (date === undefined) return { value, delayMs: undefined, form: 'unreadable' };
  // Capped like delay-seconds: a date in year 9999 is not a wait of 8,000 years.
  const delayMs = Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_SECONDS * 1000);
  return { value, delayMs, form: 'date' };
}
