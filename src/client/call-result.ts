import type { Problem } from '../core/service/problems.js';
import type { RateLimitState } from './rate-limit-state.js';
import type { RetryAfter } from './retry-after.js';

/**
 * How a call ended:
 * - `success`: a 2xx whose body is the operation's answer;
 * - `http-error`: any other status but 429, a 3xx included (redirects are never followed);
 * - `rate-limited`: 429, after every allowed attempt;
 * - `invalid-answer`: an answer that is not usable: a 2xx whose body is not the operation's
 *   answer, or any body longer than `maxResponseBytes`;
 * - `network-error`: no whole answer came: unreachable, reset, timed out, or a body cut short.
 */
export type CallOutcome = CallResult<unknown>['outcome'];

/** Why retrying stopped before success. */
export type GaveUp = 'max-attempts' | 'wait-too-long' | 'not-retryable';

/** The request as sent. */
export interface CallRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** One attempt of a call. */
export interface AttemptRecord {
  attempt: number;
  /** The status the server answered with; undefined when no answer came at all. */
  status: number | undefined;
  /** What went wrong: a network error, a body cut short or too long; undefined otherwise. */
  error: string | undefined;
  rateLimit: RateLimitState | undefined;
  /** The answer's `Retry-After`, as sent and as understood. */
  retryAfter: RetryAfter | undefined;
  /** Milliseconds waited after this attempt before the next one (0 for the last). */
  waitMs: number;
}

interface CallCommon {
  attempts: AttemptRecord[];
  /** Why retrying stopped, when it did before success. */
  gaveUp: GaveUp | undefined;
  request: CallRequest;
}

/** What every call that got a whole status line and headers has. */
interface Answered extends CallCommon {
  /** The last status. */
  status: number;
  headers: Headers;
  /** The raw body text of the last answer (untrusted: escape it before printing it). */
  text: string;
  rateLimit: RateLimitState | undefined;
  retryAfter: RetryAfter | undefined;
}

/** A 2xx whose body is the operation's answer. */
export interface CallSuccess<T> extends Answered {
  outcome: 'success';
  ok: true;
  data: T;
  problem: undefined;
  error: undefined;
  location: undefined;
  gaveUp: undefined;
}

/** Any status but 2xx and 429; a 3xx is not followed and carries its `Location`. */
export interface CallHttpError extends Answered {
  outcome: 'http-error';
  ok: false;
  data: undefined;
  /** The body, when it is an RFC 9457 problem. */
  problem: Problem | undefined;
  error: undefined;
  /** The `Location` of a 3xx as sent (untrusted text); it is never followed. */
  location: string | undefined;
}

/** 429 after every allowed attempt. */
export interface CallRateLimited extends Answered {
  outcome: 'rate-limited';
  ok: false;
  status: 429;
  data: undefined;
  problem: Problem | undefined;
  error: undefined;
  location: undefined;
}

/** An answer that came whole but cannot be used: wrong shape for a 2xx, or too long. */
export interface CallInvalidAnswer extends Answered {
  outcome: 'invalid-answer';
  ok: false;
  data: undefined;
  problem: undefined;
  /** What is wrong with the answer. */
  error: string;
  location: undefined;
}

/** No whole answer: unreachable, reset, timed out, or a body cut short. There is no status. */
export interface CallNetworkError extends CallCommon {
  outcome: 'network-error';
  ok: false;
  status: undefined;
  headers: undefined;
  text: '';
  rateLimit: undefined;
  retryAfter: undefined;
  data: undefined;
  problem: undefined;
  /** Why no whole answer came. */
  error: string;
  location: undefined;
}

/**
 * The result of a call, discriminated on `outcome` (and on `ok`): `if (result.ok)` narrows `data`
 * to the answer; every error but `network-error` has a `status`.
 */
export type CallResult<T> =
  CallSuccess<T> | CallHttpError | CallRateLimited | CallInvalidAnswer | CallNetworkError;
