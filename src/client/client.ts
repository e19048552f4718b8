import type { Operation } from '../core/config/config.js';
import { isProblem } from '../core/service/problems.js';
import type { RandomSource } from '../core/time/random.js';
import { readAnswer, type Answers } from './answers.js';
import type { AttemptRecord, CallRequest, CallResult, GaveUp } from './call-result.js';
import { describeNetworkError, NOT_SENT } from './network-error.js';
import { readRateLimit, type RateLimitState } from './rate-limit-state.js';
import { DEFAULT_MAX_RESPONSE_BYTES, readBody } from './response-body.js';
import { understandRetryAfter, type RetryAfter } from './retry-after.js';
import { MAX_TIMER_MS, sleep } from './sleep.js';
import {
  decideRetry,
  RETRY_DEFAULTS,
  type AttemptOutcome,
  type RetryOptions,
} from './retry-policy.js';

export type { ExistsAnswer, StartAnswer, VerifyAnswer } from './answers.js';
export type {
  AttemptRecord,
  CallHttpError,
  CallInvalidAnswer,
  CallNetworkError,
  CallOutcome,
  CallRateLimited,
  CallRequest,
  CallResult,
  CallSuccess,
  GaveUp,
} from './call-result.js';

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

/** Options of {@link createClient}. */
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

/** A typed client of the three operations, with the spec's retry policy. */
export interface Client {
  exists(query: {
    email?: string;
    phoneNumber?: string;
    callerId?: string;
  }): Promise<CallResult<Answers['exists']>>;
  start(input: {
    merchantId: string;
    email: string;
    callerId?: string;
  }): Promise<CallResult<Answers['start']>>;
  verify(input: {
    merchantId: string;
    email: string;
    code: string;
    callerId?: string;
  }): Promise<CallResult<Answers['verify']>>;
}

/** The wall clock; a wait longer than one timer can hold is made of several (never cut short). */
const systemClock: ClientClock = { now: () => Date.now(), sleep };

/** One attempt, as read off the wire. */
type Exchange =
  /** No answer at all. */
  | { kind: 'no-answer'; error: string; sent: boolean }
  /** A status line and headers, then a body that was cut short. */
  | { kind: 'cut-short'; response: Response; error: string }
  /** A status line and headers, then a body too long to read. */
  | { kind: 'too-large'; response: Response; error: string }
  | { kind: 'answer'; response: Response; text: string };

/**
 * Creates a client of the user-access API. On 429 it waits Retry-After plus jittered backoff and
 * tries again, at most three attempts in all (spec section 7); `start` and `verify` are repeated
 * after a network error only when the request was never sent. It never follows a redirect, never
 * reads more than `maxResponseBytes` of a body, and reports a body cut short as a network error.
 */
export function createClient(options: ClientOptions): Client {
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const clock = options.clock ?? systemClock;
  const random = options.random ?? { next: () => Math.random() };
  const retry =
    options.retry === false
      ? { ...RETRY_DEFAULTS, maxAttempts: 1 }
      : { ...RETRY_DEFAULTS, ...options.retry };
  const timeoutMs = options.timeoutMs ?? 10_000;
  // A timer cannot hold more: Node would fire it after 1 ms, or throw, at each attempt.
  if (!(timeoutMs >= 1 && timeoutMs <= MAX_TIMER_MS))
    throw new RangeError(
      `createClient: timeoutMs must be from 1 to ${MAX_TIMER_MS} ms (about 24.8 days, the longest a timer can hold); got ${timeoutMs}`,
    );
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const base = options.baseUrl.replace(/\/+$/, '');

  async function exchange(request: CallRequest): Promise<Exchange> {
    let response: Response;
    // One deadline for the status line, the headers and the whole body: a body trickled past it
    // is abandoned like a silent server.
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      response = await doFetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        // A redirect would send the request (an e-mail, a code) to wherever the server says.
        redirect: 'manual',
        signal,
      });
    } catch (failure) {
      const error = describeFailure(failure, timeoutMs);
      return { kind: 'no-answer', error, sent: !NOT_SENT.test(error) };
    }
    const body = await readBody(response, maxResponseBytes, (failure) =>
      describeFailure(failure, timeoutMs),
    );
    if (body.kind === 'complete') return { kind: 'answer', response, text: body.text };
    return body.kind === 'cut-short'
      ? { kind: 'cut-short', response, error: body.error }
      : { kind: 'too-large', response, error: body.error };
  }

  async function call<O extends Operation>(
    operation: O,
    request: CallRequest,
  ): Promise<CallResult<Answers[O]>> {
    const attempts: AttemptRecord[] = [];
    for (let attempt = 1; ; attempt++) {
      const got = await exchange(request);
      const response = got.kind === 'no-answer' ? undefined : got.response;
      const headers = response?.headers;
      const retryAfterValue = headers?.get('retry-after') ?? null;
      const record: AttemptRecord = {
        attempt,
        status: response?.status,
        error: got.kind === 'answer' ? undefined : got.error,
        rateLimit: headers === undefined ? undefined : readRateLimit(headers),
        retryAfter:
          retryAfterValue === null ? undefined : understandRetryAfter(retryAfterValue, clock.now()),
        waitMs: 0,
      };
      attempts.push(record);
      const answer =
        got.kind === 'answer' && isSuccess(got.response.status)
          ? readAnswer(operation, got.text)
          : undefined;
      const outcome: AttemptOutcome =
        got.kind === 'no-answer'
          ? { kind: 'network', sent: got.sent }
          : got.kind === 'cut-short'
            ? { kind: 'network', sent: true }
            : got.kind === 'too-large' || answer?.ok === false
              ? { kind: 'unusable' }
              : {
                  kind: 'status',
                  status: got.response.status,
                  retryAfterMs: record.retryAfter?.delayMs,
                };
      const decision = decideRetry(outcome, attempt, operation === 'exists', retry, random);
      if (decision.retry) {
        record.waitMs = decision.delayMs;
        options.onRetry?.({
          operation,
          attempt,
          maxAttempts: retry.maxAttempts,
          status: record.status,
          error: record.error,
          waitMs: decision.delayMs,
          rateLimit: record.rateLimit,
          retryAfter: record.retryAfter,
        });
        await clock.sleep(decision.delayMs);
        continue;
      }
      const gaveUp = decision.reason === 'done' ? undefined : decision.reason;
      return finish(got, answer, record, attempts, gaveUp, request);
    }
  }

  const post = (path: string, payload: Record<string, unknown>): CallRequest => ({
    method: 'POST',
    url: `${base}${path}`,
    headers: { ...authHeaders(options.token), 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });

  return {
    exists(query) {
      const params = new URLSearchParams();
      if (query.email !== undefined) params.set('email', query.email);
      if (query.phoneNumber !== undefined) params.set('phone_number', query.phoneNumber);
      if (query.callerId !== undefined) params.set('caller_id', query.callerId);
      return call('exists', {
        method: 'GET',
        url: `${base}/v1/users/exists?${params}`,
        headers: authHeaders(options.token),
        body: undefined,
      });
    },
    start(input) {
      return call(
        'start',
        post(merchantPath(input.merchantId, 'start'), {
          email: input.email,
          ...(input.callerId === undefined ? {} : { caller_id: input.callerId }),
        }),
      );
    },
    verify(input) {
      return call(
        'verify',
        post(merchantPath(input.merchantId, 'verify'), {
          email: input.email,
          verification_code: input.code,
          ...(input.callerId === undefined ? {} : { caller_id: input.callerId }),
        }),
      );
    },
  };
}

function authHeaders(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, accept: 'application/json' };
}

function merchantPath(merchantId: string, action: 'start' | 'verify'): string {
  return `/v1/merchants/${encodeURIComponent(merchantId)}/users/passwordless/${action}`;
}

const isSuccess = (status: number) => status >= 200 && status < 300;

function describeFailure(failure: unknown, timeoutMs: number): string {
  const error = describeNetworkError(failure);
  return error === 'timed out' ? `timed out after ${timeoutMs} ms` : error;
}

/** The result of the last attempt, with the attempts before it. */
function finish<T>(
  got: Exchange,
  answer: { ok: true; data: T } | { ok: false; error: string } | undefined,
  last: AttemptRecord,
  attempts: AttemptRecord[],
  gaveUp: GaveUp | undefined,
  request: CallRequest,
): CallResult<T> {
  const common = { attempts, gaveUp, request };
  if (got.kind === 'no-answer' || got.kind === 'cut-short') {
    return {
      ...common,
      outcome: 'network-error',
      ok: false,
      status: undefined,
      headers: undefined,
      text: '',
      rateLimit: undefined,
      retryAfter: undefined,
      data: undefined,
      problem: undefined,
      error: got.error,
      location: undefined,
    };
  }
  const { response } = got;
  const answered = {
    ...common,
    status: response.status,
    headers: response.headers,
    rateLimit: last.rateLimit,
    retryAfter: last.retryAfter,
  };
  const invalid = (error: string, text: string): CallResult<T> => ({
    ...answered,
    text,
    outcome: 'invalid-answer',
    ok: false,
    data: undefined,
    problem: undefined,
    error,
    location: undefined,
  });
  if (got.kind === 'too-large') return invalid(got.error, '');
  if (answer?.ok === false) return invalid(answer.error, got.text);
  if (answer?.ok === true) {
    return {
      ...answered,
      gaveUp: undefined,
      text: got.text,
      outcome: 'success',
      ok: true,
      data: answer.data,
      problem: undefined,
      error: undefined,
      location: undefined,
    };
  }
  const problem = problemOf(got.text);
  const failed = { ...answered, text: got.text, ok: false as const, data: undefined, problem };
  if (response.status === 429)
    return {
      ...failed,
      outcome: 'rate-limited',
      status: 429,
      error: undefined,
      location: undefined,
    };
  const isRedirect = response.status >= 300 && response.status < 400;
  return {
    ...failed,
    outcome: 'http-error',
    error: undefined,
    location: isRedirect ? (response.headers.get('location') ?? undefined) : undefined,
  };
}

function problemOf(text: string) {
  try {
    const parsed: unknown = JSON.parse(text);
    return isProblem(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
