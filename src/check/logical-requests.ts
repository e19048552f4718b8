import type { RequestRecord } from '../core/records/records.js';
import { CHECK_DEFAULTS } from './check-options.js';
import { ITEMS_PER_PAUSE } from './paced.js';
import { keysOf } from './record-keys.js';

/** Statuses that mean "the request did not run, try again later": the ones a client may resend. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * How a resend is known to be one: `certain` when the client said so (the same Idempotency-Key, a
 * Retry-Attempt above the one before), sent it before the Retry-After of the attempt before was
 * over (no shopper is that quick), or within `timedResendMs` after it ran out (a client timing its
 * retry on Retry-After; no shopper is that punctual); `possible` when it is only the identical
 * request sent again well after a full Retry-After, which a shopper may have sent anew once the
 * client gave up.
 */
export type ResendLink = 'certain' | 'possible';

/** A first attempt and its resends, oldest first: what a user meant to do once. */
export interface LogicalRequest {
  attempts: RequestRecord[];
  /** How each attempt after the first is known to be a resend of the one before it. */
  links: ResendLink[];
}

/**
 * Groups requests (oldest first) into logical requests, counting the first attempt in, as
 * `uas call` does:
 *
 * - a request with an `Idempotency-Key` continues the logical request of the same client and
 *   key, however long after; another key is another request, even for an identical one;
 * - without one, a request continues the logical request of an identical earlier one (same
 *   client, same fingerprint: the caller_id is not part of it, so a resend under a new caller_id
 *   is still recognised) when its `Retry-Attempt` is above that one's, or (without Retry-Attempt)
 *   when that one's last attempt was answered 429 or 503 at most its Retry-After plus
 *   `resendWindowMs` before. A `Retry-Attempt` of 0, or one not above the last, starts anew.
 *   Identical requests sent at once (a shopper's two tabs) each open a request of their own, and
 *   a `Retry-Attempt` above 0 continues the one it most likely follows: the attempt before its
 *   own, one answered 429 or 503, one whose Retry-After is over, the latest (see {@link followedRequest}).
 *
 * A request whose fields could not be read (a body that is not JSON, an unauthenticated request)
 * has a fingerprint of its method and path only, which any other such request shares; it is
 * never taken for a resend.
 */
export function groupLogicalRequests(
  records: readonly RequestRecord[],
  resendWindowMs: number,
  retryAfterToleranceMs = CHECK_DEFAULTS.retryAfterToleranceMs,
  timedResendMs = CHECK_DEFAULTS.timedResendMs,
): LogicalRequest[] {
  const options = { resendWindowMs, retryAfterToleranceMs, timedResendMs };
  const steps = groupLogicalRequestsSteps(records, options);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/** Options of {@link groupLogicalRequestsSteps}; see {@link groupLogicalRequests}. */
export interface GroupingOptions {
  resendWindowMs: number;
  retryAfterToleranceMs: number;
  timedResendMs: number;
}

/**
 * {@link groupLogicalRequests}, with a yield after every {@link ITEMS_PER_PAUSE} records, for a
 * check that gives way to other requests meanwhile.
 */
export function* groupLogicalRequestsSteps(
  records: readonly RequestRecord[],
  options: GroupingOptions,
): Generator<void, LogicalRequest[]> {
  const all: LogicalRequest[] = [];
  // An identical request and a request with an Idempotency-Key are looked up apart.
  const open = {
    request: new Map<string, LogicalRequest[]>(),
    key: new Map<string, LogicalRequest>(),
  };
  for (let index = 0; index < records.length; index++) {
    if (index > 0 && index % ITEMS_PER_PAUSE === 0) yield;
    const record = records[index]!;
    if (record.fields === undefined) {
      all.push({ attempts: [record], links: [] });
      continue;
    }
    const idempotencyKey = textOf(record.idempotency_key);
    const fresh: LogicalRequest = { attempts: [record], links: [] };
    if (idempotencyKey !== undefined) {
      const key = `${record.client_id ?? ''}\n${idempotencyKey}`;
      const current = open.key.get(key);
      if (current !== undefined) {
        current.attempts.push(record);
        current.links.push('certain');
        continue;
      }
      all.push(fresh);
      open.key.set(key, fresh);
      continue;
    }
    const key = keysOf(record).sameRequest;
    const requests = open.request.get(key) ?? [];
    const current = followedRequest(record, requests, options);
    const last = current?.attempts[current.attempts.length - 1];
    const link = last === undefined ? undefined : resendLink(record, last, options);
    if (current !== undefined && link !== undefined) {
      current.attempts.push(record);
      current.links.push(link);
      continue;
    }
    all.push(fresh);
    requests.push(fresh);
    if (requests.length > MAX_OPEN_IDENTICAL) requests.shift();
    open.request.set(key, requests);
  }
  return all;
}

/** How many identical requests sent at once a `Retry-Attempt` is matched against. */
const MAX_OPEN_IDENTICAL = 32;

/**
 * The open request (of identical ones, oldest first) that `record` may continue: without a
 * `Retry-Attempt`, the latest; with one above 0, of those whose last attempt sent a lower one,
 * best one whose last attempt is the one just before, then one whose last attempt was answered
 * 429 or 503 (a retry follows what a client retries: a tab's resend of its 429 is not taken for a
 * resend of the 422 of the tab beside it), then one whose Retry-After is over (a client that waits
 * it is not taken for one that does not because a tab beside it was told to wait longer), then
 * the latest.
 */
function followedRequest(
  record: RequestRecord,
  requests: readonly LogicalRequest[],
  options: GroupingOptions,
): LogicalRequest | undefined {
  const attempt = retryAttemptOf(record);
  if (attempt === undefined || attempt === 0) return requests[requests.length - 1];
  let best: LogicalRequest | undefined;
  let bestScore = -1;
  for (const request of requests) {
    const last = request.attempts[request.attempts.length - 1]!;
    const before = retryAttemptOf(last) ?? 0;
    if (before >= attempt) continue;
    const over = record.at >= last.at + retryAfterMs(last) - options.retryAfterToleranceMs;
    const retried = RETRYABLE_STATUSES.has(last.status);
    const score = (before === attempt - 1 ? 4 : 0) + (retried ? 2 : 0) + (over ? 1 : 0);
    if (score >= bestScore) [best, bestScore] = [request, score];
  }
  return best;
}

function resendLink(
  record: RequestRecord,
  last: RequestRecord,
  options: GroupingOptions,
): ResendLink | undefined {
  const attempt = retryAttemptOf(record);
  if (attempt !== undefined) {
    const before = retryAttemptOf(last);
    return attempt > (before ?? 0) ? 'certain' : undefined;
  }
  if (!RETRYABLE_STATUSES.has(last.status)) return undefined;
  const gap = record.at - last.at;
  const retryAfter = retryAfterMs(last);
  if (gap < 0 || gap > retryAfter + options.resendWindowMs) return undefined;
  return gap < retryAfter - options.retryAfterToleranceMs ||
    gap <= retryAfter + options.timedResendMs
    ? 'certain'
    : 'possible';
}

/** Recorded header text, trimmed; undefined when absent or blank. */
function textOf(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text === undefined || text === '' ? undefined : text;
}

/** The `Retry-Attempt` a request sent, as a number; undefined when absent or not a whole number. */
export function retryAttemptOf(record: RequestRecord): number | undefined {
  const text = textOf(record.retry_attempt);
  return text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}

/**
 * The attempts of a logical request in runs that are certainly one request each: a `possible`
 * resend starts a new run, as it may have been sent anew.
 */
export function certainRuns(request: LogicalRequest): RequestRecord[][] {
  const runs: RequestRecord[][] = [[request.attempts[0]!]];
  request.links.forEach((link, index) => {
    const attempt = request.attempts[index + 1]!;
    if (link === 'certain') runs[runs.length - 1]!.push(attempt);
    else runs.push([attempt]);
  });
  return runs;
}

/**
 * The Retry-After of an answer in milliseconds; 0 when none was sent, or when the answer did not
 * reach its client whole (`upstream.cut`, behind `uas serve --upstream`): a client pipelined
 * behind an answer the real service cut short got nothing of it, and one whose answer broke off
 * met a failed connection, not a wait to keep.
 */
export function retryAfterMs(record: RequestRecord): number {
  if (record.upstream?.cut !== undefined) return 0;
  const seconds = record.retry_after;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
    ? seconds * 1000
    : 0;
}

/** One wait between two attempts of a logical request. */
export interface RetryWait {
  /** The attempt that was answered 429 or 503. */
  before: RequestRecord;
  /** Its resend. */
  after: RequestRecord;
  /** 1 for the wait after the first attempt, 2 after the second, ... */
  index: number;
  /** Milliseconds between the two. */
  waitMs: number;
  /** The wait minus the Retry-After of `before` (the client's own backoff). */
  backoffMs: number;
}

/** The waits of a logical request, in order. */
export function retryWaits(request: LogicalRequest): RetryWait[] {
  const waits: RetryWait[] = [];
  for (let index = 1; index < request.attempts.length; index++) {
    const before = request.attempts[index - 1] as RequestRecord;
    const after = request.attempts[index] as RequestRecord;
    const waitMs = after.at - before.at;
    waits.push({ before, after, index, waitMs, backoffMs: waitMs - retryAfterMs(before) });
  }
  return waits;
}
