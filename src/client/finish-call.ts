import { isProblem } from '../core/service/problems.js';
import { redirectTarget, type HttpOutcome } from '../http/exchange-http.js';
import type { AttemptRecord, CallRequest, CallResult, GaveUp } from './call-result.js';

/** A 2xx body read as the operation's answer, or what is wrong with it; undefined for others. */
export type AnswerReading<T> = { ok: true; data: T } | { ok: false; error: string } | undefined;

/** What the last attempt of a call gave, with the attempts before it. */
export interface LastAttempt<T> {
  got: HttpOutcome;
  answer: AnswerReading<T>;
  record: AttemptRecord;
  attempts: AttemptRecord[];
  gaveUp: GaveUp | undefined;
  request: CallRequest;
}

/** The result of a call, from its last attempt. */
export function finishCall<T>(last: LastAttempt<T>): CallResult<T> {
  const { got, answer, record, attempts, gaveUp, request } = last;
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
  const answered = {
    ...common,
    status: got.status,
    headers: got.headers,
    rateLimit: record.rateLimit,
    retryAfter: record.retryAfter,
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
  if (got.status === 429)
    return {
      ...failed,
      outcome: 'rate-limited',
      status: 429,
      error: undefined,
      location: undefined,
    };
  return { ...failed, outcome: 'http-error', error: undefined, location: redirectTarget(got) };
}

function problemOf(text: string) {
  try {
    const parsed: unknown = JSON.parse(text);
    return isProblem(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
