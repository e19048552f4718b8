import type { Operation } from '../core/config/config.js';
import type { RandomSource } from '../core/time/random.js';
import { checkBaseUrl } from '../http/base-url.js';
import type { RateLimitState } from './rate-limit-state.js';
import type { RetryAfter } from './retry-after.js';
import { RETRY_DEFAULTS, type ResolvedRetryOptions, type RetryOptions } from './retry-policy.js';
import { sleep, timerMs } from './sleep.js';

/** Time for the client: a clock to read and a way to wait. Virtual in simulations and tests. */
export interface ClientClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** What `onRetry` is told before each wait. */
export interface RetryNotice {
  operation: Operation;
  attempt: number;
  maxAttempts: number;
  status: number | undefined;
  error: string | undefined;
  waitMs: number;
  rateLimit: RateLimitState | undefined;
  /** The answer's `Retry-After`, as sent and as understood. */
  retryAfter: RetryAfter | undefined;
}

/** Options of `createClient`. */
export interface ClientOptions {
  /** Such as `http://127.0.0.1:4010`. */
  baseUrl: string;
  /** The access token, sent as `Authorization: Bearer <token>`. */
  token: string;
  /**
   * @default globalThis.fetch, looked up at each call (so msw's `server.listen()` after the
   * client is made still intercepts it)
   */
  fetch?: typeof fetch;
  /** The retry policy, or false for a single attempt. */
  retry?: RetryOptions | false;
  /** @default the wall clock and setTimeout */
  clock?: ClientClock;
  /** Jitter source. @default Math.random */
  random?: RandomSource;
  /** Called before each wait between attempts (to log 429s, as the spec recommends). */
  onRetry?: (notice: RetryNotice) => void;
  /**
   * Milliseconds before an attempt, its body included, is abandoned as a network error: from 1
   * to 2^31-1 (`MAX_TIMER_MS`, the longest a timer can hold); anything else throws a RangeError.
   * @default 10000
   */
  timeoutMs?: number;
  /**
   * Longest response body read, in bytes. A longer one is not read (refused at once when
   * `Content-Length` says so, cut off as soon as it passes the limit otherwise) and the call ends
   * `invalid-answer`. Answers of the API are a few hundred bytes.
   * @default 1048576 (1 MiB)
   */
  maxResponseBytes?: number;
}

/** Default of `maxResponseBytes`: 1 MiB, far above any answer of the API (a few hundred bytes). */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/** Default of `timeoutMs`. */
const DEFAULT_TIMEOUT_MS = 10_000;

/** The wall clock; a wait longer than one timer can hold is made of several (never cut short). */
const systemClock: ClientClock = { now: () => Date.now(), sleep };

/** {@link ClientOptions} with every default applied, checked. */
export interface ClientSettings {
  baseUrl: string;
  token: string;
  fetch: typeof fetch | undefined;
  retry: ResolvedRetryOptions;
  clock: ClientClock;
  random: RandomSource;
  onRetry: ((notice: RetryNotice) => void) | undefined;
  timeoutMs: number;
  maxResponseBytes: number;
}

/**
 * Applies the defaults of {@link ClientOptions}; a `timeoutMs` no timer can hold is a RangeError,
 * a `baseUrl` that is not an http(s) origin (with a path prefix or not) a TypeError: a query or a
 * fragment would take every request to another path.
 */
export function resolveClientOptions(options: ClientOptions): ClientSettings {
  // A timer cannot hold more: Node would fire it after 1 ms, or throw, at each attempt.
  const timeoutMs = timerMs(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'createClient: timeoutMs');
  return {
    baseUrl: checkBaseUrl(options.baseUrl, 'createClient: baseUrl'),
    token: options.token,
    fetch: options.fetch,
    retry:
      options.retry === false
        ? { ...RETRY_DEFAULTS, maxAttempts: 1 }
        : { ...RETRY_DEFAULTS, ...options.retry },
    clock: options.clock ?? systemClock,
    random: options.random ?? { next: () => Math.random() },
    onRetry: options.onRetry,
    timeoutMs,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  };
}
