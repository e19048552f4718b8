import type { Operation } from '../core/config/config.js';
import { isProblem, type Problem } from '../core/service/problems.js';
import type { RandomSource } from '../core/time/random.js';
import { describeNetworkError } from './network-error.js';
import { readRateLimit, readRetryAfter, type RateLimitState } from './rate-limit-state.js';
import {
  decideRetry,
  RETRY_DEFAULTS,
  type AttemptOutcome,
  type RetryOptions,
} from './retry-policy.js';

/** Time for the client: a clock to read and a way to wait. Virtual in simulations and tests. */
export interface ClientClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** One attempt of a call. */
export interface AttemptRecord {
  attempt: number;
  /** The status, or undefined when the request failed on the network. */
  status: number | undefined;
  /** The network error, when there was one. */
  error: string | undefined;
  rateLimit: RateLimitState | undefined;
  /** Milliseconds waited after this attempt before the next one (0 for the last). */
  waitMs: number;
}

/** How a call ended. */
export type CallOutcome = 'success' | 'http-error' | 'rate-limited' | 'network-error';

/** The answer of a call: the parsed body or a typed problem, the rate-limit state and the attempts. */
export interface CallResult<T> {
  outcome: CallOutcome;
  ok: boolean;
  /** The last status; undefined when no answer came. */
  status: number | undefined;
  /** The parsed body on success. */
  data: T | undefined;
  /** The problem on an error answer. */
  problem: Problem | undefined;
  /** The raw body text of the last answer. */
  text: string;
  headers: Headers | undefined;
  rateLimit: RateLimitState | undefined;
  attempts: AttemptRecord[];
  /** Why retrying stopped, when it did before success. */
  gaveUp: 'max-attempts' | 'wait-too-long' | 'not-retryable' | undefined;
  /** The request as sent. */
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body: string | undefined;
  };
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
}

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Such as `http://127.0.0.1:4010`. */
  baseUrl: string;
  /** The access token, sent as `Authorization: Bearer <token>`. */
  token: string;
  /** @default globalThis.fetch */
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
   * Milliseconds before an attempt is abandoned as a network error.
   * @default 10000
   */
  timeoutMs?: number;
}

/** Answer of exists. */
export interface ExistsAnswer {
  exists: boolean;
  token_count: number;
}

/** Answer of start. */
export interface StartAnswer {
  sent: boolean;
  expires_in?: number;
  attempts_allowed?: number;
}

/** Answer of verify. */
export interface VerifyAnswer {
  verified: boolean;
  email?: string;
  merchant_id?: string;
}

/** A typed client of the three operations, with the spec's retry policy. */
export interface Client {
  exists(query: {
    email?: string;
    phoneNumber?: string;
    callerId?: string;
  }): Promise<CallResult<ExistsAnswer>>;
  start(input: {
    merchantId: string;
    email: string;
    callerId?: string;
  }): Promise<CallResult<StartAnswer>>;
  verify(input: {
    merchantId: string;
    email: string;
    code: string;
    callerId?: string;
  }): Promise<CallResult<VerifyAnswer>>;
}

const systemClock: ClientClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Creates a client of the user-access API. On 429 it waits Retry-After plus jittered backoff and
 * tries again, at most three attempts in all (spec section 7); `start` and `verify` are repeated
 * after a network error only when the request was never sent.
 */
export function createClient(options: ClientOptions): Client {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const clock = options.clock ?? systemClock;
  const random = options.random ?? { next: () => Math.random() };
  const retry =
    options.retry === false
      ? { ...RETRY_DEFAULTS, maxAttempts: 1 }
      : { ...RETRY_DEFAULTS, ...options.retry };
  const base = options.baseUrl.replace(/\/+$/, '');

  async function call<T>(
    operation: Operation,
    method: string,
    path: string,
    payload: Record<string, unknown> | undefined,
  ): Promise<CallResult<T>> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.token}`,
      accept: 'application/json',
    };
    let body: string | undefined;
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(payload);
    }
    const request = { method, url: `${base}${path}`, headers, body };
    const attempts: AttemptRecord[] = [];
    for (let attempt = 1; ; attempt++) {
      let response: Response | undefined;
      let text = '';
      let error: string | undefined;
      let sent = true;
      try {
        response = await doFetch(request.url, {
          method,
          headers,
          body,
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
        text = await response.text();
      } catch (failure) {
        error = describeNetworkError(failure);
        sent = !/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH/.test(error);
      }
      const rateLimit = response === undefined ? undefined : readRateLimit(response.headers);
      const record: AttemptRecord = {
        attempt,
        status: response?.status,
        error,
        rateLimit,
        waitMs: 0,
      };
      attempts.push(record);
      const outcome: AttemptOutcome =
        response === undefined
          ? { kind: 'network', sent }
          : {
              kind: 'status',
              status: response.status,
              retryAfterMs: readRetryAfter(response.headers.get('retry-after'), clock.now()),
            };
      const decision = decideRetry(outcome, attempt, operation === 'exists', retry, random);
      if (decision.retry) {
        record.waitMs = decision.delayMs;
        options.onRetry?.({
          operation,
          attempt,
          maxAttempts: retry.maxAttempts,
          status: response?.status,
          error,
          waitMs: decision.delayMs,
          rateLimit,
        });
        await clock.sleep(decision.delayMs);
        continue;
      }
      return finish<T>(
        request,
        response,
        text,
        rateLimit,
        attempts,
        decision.reason === 'done' ? undefined : decision.reason,
      );
    }
  }

  return {
    exists(query) {
      const params = new URLSearchParams();
      if (query.email !== undefined) params.set('email', query.email);
      if (query.phoneNumber !== undefined) params.set('phone_number', query.phoneNumber);
      if (query.callerId !== undefined) params.set('caller_id', query.callerId);
      return call<ExistsAnswer>('exists', 'GET', `/v1/users/exists?${params}`, undefined);
    },
    start(input) {
      return call<StartAnswer>('start', 'POST', merchantPath(input.merchantId, 'start'), {
        email: input.email,
        ...(input.callerId === undefined ? {} : { caller_id: input.callerId }),
      });
    },
    verify(input) {
      return call<VerifyAnswer>('verify', 'POST', merchantPath(input.merchantId, 'verify'), {
        email: input.email,
        verification_code: input.code,
        ...(input.callerId === undefined ? {} : { caller_id: input.callerId }),
      });
    },
  };
}

function merchantPath(merchantId: string, action: 'start' | 'verify'): string {
  return `/v1/merchants/${encodeURIComponent(merchantId)}/users/passwordless/${action}`;
}

function finish<T>(
  request: CallResult<T>['request'],
  response: Response | undefined,
  text: string,
  rateLimit: RateLimitState | undefined,
  attempts: AttemptRecord[],
  gaveUp: CallResult<T>['gaveUp'],
): CallResult<T> {
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const status = response?.status;
  const ok = status !== undefined && status < 400;
  const outcome: CallOutcome =
    response === undefined
      ? 'network-error'
      : ok
        ? 'success'
        : status === 429
          ? 'rate-limited'
          : 'http-error';
  return {
    outcome,
    ok,
    status,
    data: ok ? (parsed as T) : undefined,
    problem: !ok && isProblem(parsed) ? parsed : undefined,
    text,
    headers: response?.headers,
    rateLimit,
    attempts,
    gaveUp,
    request,
  };
}
