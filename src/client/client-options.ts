import type { Operation } from '../core/config/config.js';
import type { RandomSource } from '../core/time/random.js';
import { checkBaseUrl } from '../http/base-url.js';
import type { RateLimitState } from './rate-limit-state.js';
import type { RetryAfter } from './retry-after.js';
import { RETRY_DEFAULTS, type ResolvedRetryOptions, type RetryOptions } from './retry-policy.js';
import { sleep, timerMs } from './sleep.js';
import { byteLimit } from './byte-limit.js';
import { hasMethods, shownValue } from '../core/config/value-shape.js';
import { notTokenAlone, unsendableCharacter } from '../text/header-token.js';

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
 * Applies the defaults of {@link ClientOptions} (to an option given as undefined too); a
 * `timeoutMs` no timer can hold, or a retry option out of its range, is a RangeError, a `baseUrl`
 * that is not an http(s) origin (with a path prefix or not) a TypeError: a query or a fragment
 * would take every request to another path. So is a token no request can carry, and a `fetch`,
 * `clock`, `random` or `onRetry` that is not what the calls use: each call would fail, or never
 * end; and options that are not an object.
 */
export function resolveClientOptions(options: ClientOptions): ClientSettings {
  // From JavaScript: createClient() read a property of undefined, with a message that named none.
  if (typeof options !== 'object' || options === null)
    throw new TypeError(
      `createClient takes an object of options (baseUrl, token, ...); got ${shownValue(options)}`,
    );
  // A timer cannot hold more: Node would fire it after 1 ms, or throw, at each attempt.
  const timeoutMs = timerMs(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'createClient: timeoutMs');
  return {
    baseUrl: checkBaseUrl(options.baseUrl, 'createClient: baseUrl'),
    token: checkToken(options.token),
    fetch: checkShape(
      options.fetch,
      'fetch',
      'be a function',
      (value) => typeof value === 'function',
    ),
    retry: options.retry === false ? { ...RETRY_DEFAULTS, maxAttempts: 1 } : retryOf(options.retry),
    clock:
      checkShape(options.clock, 'clock', 'have now() and sleep(ms)', (value) =>
        hasMethods(value, ['now', 'sleep']),
      ) ?? systemClock,
    random: checkShape(
      options.random,
      'random',
      'have next(), as createSeededRandom(seed) gives',
      (value) => hasMethods(value, ['next']),
    ) ?? { next: () => Math.random() },
    // Called before each wait: one that is no function made a call that retried reject.
    onRetry: checkShape(
      options.onRetry,
      'onRetry',
      'be a function',
      (value) => typeof value === 'function',
    ),
    timeoutMs,
    maxResponseBytes: byteLimit(
      options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      'createClient: maxResponseBytes',
    ),
  };
}

/** The token, when a request can carry it in its Authorization header. */
function checkToken(token: unknown): string {
  if (typeof token !== 'string' || token === '')
    throw new TypeError(
      `createClient: token must be a non-empty string; got ${token === '' ? '""' : String(token)}`,
    );
  const shape = notTokenAlone(token);
  if (shape !== undefined) throw new TypeError(`createClient: token ${shape}`);
  const why = unsendableCharacter(token);
  if (why !== undefined)
    throw new TypeError(
      `createClient: token cannot go in an Authorization header: ${why} (a token is one line of printable ASCII)`,
    );
  return token;
}

/** `value` (undefined when not given) when it passes `fits`; otherwise a TypeError naming `name`. */
function checkShape<T>(
  value: T | undefined,
  name: string,
  expected: string,
  fits: (value: unknown) => boolean,
): T | undefined {
  if (value === undefined || fits(value)) return value;
  throw new TypeError(`createClient: ${name} must ${expected}; got ${shownValue(value)}`);
}

/**
 * The retry policy, each option left out or undefined at its default: `maxAttempts: undefined`
 * compared false with every attempt, and retried without end.
 */
function retryOf(retry: RetryOptions | undefined): ResolvedRetryOptions {
  const given = retry ?? {};
  const pick = (name: keyof RetryOptions) => given[name] ?? RETRY_DEFAULTS[name];
  const maxAttempts = pick('maxAttempts');
  if (!(Number.isSafeInteger(maxAttempts) && maxAttempts >= 1))
    throw new RangeError(
      `createClient: retry.maxAttempts must be a whole number from 1; got ${String(maxAttempts)}`,
    );
  const delay = (name: 'baseDelayMs' | 'maxDelayMs') => {
    const ms = pick(name);
    if (!(typeof ms === 'number' && Number.isFinite(ms) && ms >= 0))
      throw new RangeError(
        `createClient: retry.${name} must be a finite number of ms, 0 or more; got ${String(ms)}`,
      );
    return ms;
  };
  const maxWaitMs = pick('maxWaitMs');
  // Infinity: wait however long the server asks.
  if (!(typeof maxWaitMs === 'number' && maxWaitMs >= 0))
    throw new RangeError(
      `createClient: retry.maxWaitMs must be a number of ms, 0 or more; got ${String(maxWaitMs)}`,
    );
  return {
    maxAttempts,
    baseDelayMs: delay('baseDelayMs'),
    maxDelayMs: delay('maxDelayMs'),
    maxWaitMs,
  };
}
