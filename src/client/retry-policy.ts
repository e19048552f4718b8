import type { RandomSource } from '../core/time/random.js';

/** The retry policy of the spec (section 7): backoff with jitter, at most three attempts. */
export interface RetryOptions {
  /**
   * Attempts in all, the first one included.
   * @default 3
   */
  maxAttempts?: number;
  /**
   * Ceiling of the first backoff; it doubles on each attempt.
   * @default 500
   */
  baseDelayMs?: number;
  /**
   * Largest backoff ceiling.
   * @default 8000
   */
  maxDelayMs?: number;
  /**
   * Give up at once when the server asks to wait longer than this.
   * @default 30000
   */
  maxWaitMs?: number;
}

/** Every option with its default applied. */
export type ResolvedRetryOptions = Required<RetryOptions>;

/** Defaults of {@link RetryOptions}, in one place. */
export const RETRY_DEFAULTS: ResolvedRetryOptions = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  maxWaitMs: 30_000,
};

/** What an attempt ended with, as far as retrying is concerned. */
export type AttemptOutcome =
  | { kind: 'status'; status: number; retryAfterMs: number | undefined }
  /**
   * No whole answer. `sent`: the request may have reached the server (a timeout, a reset, a body
   * cut short), so it may have run. `lasting`: the failure comes again on every attempt (a TLS
   * certificate or protocol refused, a port fetch never connects to), so none is made.
   */
  | { kind: 'network'; sent: boolean; lasting?: boolean }
  /** An answer that cannot be used (too long, or not the operation's): asking again would not help. */
  | { kind: 'unusable' };

/** Whether to try again, and after how long. A value, never an exception. */
export type RetryDecision =
  | { retry: true; delayMs: number }
  | { retry: false; reason: 'done' | 'max-attempts' | 'wait-too-long' | 'not-retryable' };

/**
 * Decides whether attempt `attempt` (1-based) is followed by another.
 *
 * Retried: 429 and 503 (the server did not run the request), and network errors where the request
 * was not sent, or was sent but is safe to repeat (`idempotent`: exists). Done: 2xx. Not retried:
 * every other status (3xx included: redirects are not followed), unusable answers, and network
 * errors that would come again (TLS refused, a blocked port). The wait is the server's Retry-After plus full jitter of an exponential backoff
 * (`random × min(maxDelay, base × 2^(attempt-1))`): never earlier than Retry-After, and clients
 * told the same Retry-After spread out instead of returning together. A Retry-After above
 * `maxWaitMs` ends the retries at once.
 */
export function decideRetry(
  outcome: AttemptOutcome,
  attempt: number,
  idempotent: boolean,
  options: ResolvedRetryOptions,
  random: RandomSource,
): RetryDecision {
  if (outcome.kind === 'status' && outcome.status >= 200 && outcome.status < 300)
    return { retry: false, reason: 'done' };
  const retryable =
    outcome.kind === 'status'
      ? outcome.status === 429 || outcome.status === 503
      : outcome.kind === 'network' && outcome.lasting !== true && (!outcome.sent || idempotent);
  if (!retryable) return { retry: false, reason: 'not-retryable' };
  const retryAfterMs = outcome.kind === 'status' ? (outcome.retryAfterMs ?? 0) : 0;
  if (attempt >= options.maxAttempts) return { retry: false, reason: 'max-attempts' };
  if (retryAfterMs > options.maxWaitMs) return { retry: false, reason: 'wait-too-long' };
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return { retry: true, delayMs: retryAfterMs + share(random.next()) * ceiling };
}

/**
 * A draw of `random` as a share of the backoff, from 0 to 1: a source that gives something else
 * (NaN, 5, -1) waits the whole backoff, never a negative or NaN wait that would resend at once.
 */
function share(draw: number): number {
  return draw >= 0 && draw <= 1 ? draw : 1;
}
