import type { Operation } from '../core/config/config.js';
import { describeNetworkError } from '../http/network-error.js';
import { exchangeHttp, type HttpOutcome } from '../http/exchange-http.js';
import type { NetworkErrorKind } from '../http/network-error.js';
import { readAnswer, type Answers } from './answers.js';
import type { AttemptRecord, CallRequest, CallResult } from './call-result.js';
import type { ClientSettings } from './client-options.js';
import { finishCall, type AnswerReading } from './finish-call.js';
import { readRateLimit } from './rate-limit-state.js';
import { understandRetryAfter } from './retry-after.js';
import { decideRetry, type AttemptOutcome } from './retry-policy.js';

/**
 * Makes a call of `operation`: sends `request`, and on 429 (or a network error the policy may
 * repeat) waits and sends it again, as `settings.retry` says; returns the last attempt's result
 * with every attempt's record.
 */
export async function callWithRetry<O extends Operation>(
  settings: ClientSettings,
  operation: O,
  request: CallRequest,
): Promise<CallResult<Answers[O]>> {
  const { clock, retry } = settings;
  const attempts: AttemptRecord[] = [];
  for (let attempt = 1; ; attempt++) {
    const got = await exchange(settings, request, attempt);
    const record = recordOf(got, attempt, clock.now());
    attempts.push(record);
    const answer: AnswerReading<Answers[O]> =
      got.kind === 'answer' && isSuccess(got.status) ? readAnswer(operation, got.text) : undefined;
    const decision = decideRetry(
      outcomeOf(got, answer, record),
      attempt,
      operation === 'exists',
      retry,
      settings.random,
    );
    if (!decision.retry) {
      const gaveUp = decision.reason === 'done' ? undefined : decision.reason;
      return finishCall({ got, answer, record, attempts, gaveUp, request });
    }
    record.waitMs = decision.delayMs;
    settings.onRetry?.({
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
  }
}

/**
 * One attempt on the wire: one deadline for the status line, the headers and the whole body. It
 * says which attempt it is (`Retry-Attempt: 0` for the first, 1 and 2 for the resends), so that a
 * reader of the traffic (`uas check`) tells a resend from an identical request sent at the same
 * time, which the server alone cannot.
 */
function exchange(
  settings: ClientSettings,
  request: CallRequest,
  attempt: number,
): Promise<HttpOutcome> {
  const { timeoutMs } = settings;
  const headers = { ...request.headers, 'retry-attempt': String(attempt - 1) };
  return exchangeHttp(
    { ...request, headers },
    {
      fetch: settings.fetch,
      timeoutMs,
      maxResponseBytes: settings.maxResponseBytes,
      describe: (failure) => {
        const error = describeNetworkError(failure);
        return error === 'timed out' ? `timed out after ${timeoutMs} ms` : error;
      },
    },
  );
}

/** The record of an attempt, before any wait after it. */
function recordOf(got: HttpOutcome, attempt: number, now: number): AttemptRecord {
  const headers = got.kind === 'no-answer' ? undefined : got.headers;
  const retryAfterValue = headers?.get('retry-after') ?? null;
  return {
    attempt,
    status: got.kind === 'no-answer' ? undefined : got.status,
    error: got.kind === 'answer' ? undefined : got.error,
    rateLimit: headers === undefined ? undefined : readRateLimit(headers),
    retryAfter: retryAfterValue === null ? undefined : understandRetryAfter(retryAfterValue, now),
    waitMs: 0,
  };
}

/** What an attempt ended with, as far as retrying is concerned. */
function outcomeOf(
  got: HttpOutcome,
  answer: AnswerReading<unknown>,
  record: AttemptRecord,
): AttemptOutcome {
  if (got.kind === 'no-answer')
    return { kind: 'network', sent: got.sent, lasting: wouldComeAgain(got.reason) };
  if (got.kind === 'cut-short') return { kind: 'network', sent: true };
  if (got.kind === 'too-large' || answer?.ok === false) return { kind: 'unusable' };
  return { kind: 'status', status: got.status, retryAfterMs: record.retryAfter?.delayMs };
}

const isSuccess = (status: number) => status >= 200 && status < 300;

/** Failures that no second attempt mends: TLS refused (a certificate, http spoken to https), a port fetch blocks. */
function wouldComeAgain(reason: NetworkErrorKind): boolean {
  return reason === 'tls' || reason === 'blocked';
}
