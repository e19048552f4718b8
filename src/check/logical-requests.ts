import type { RequestRecord } from '../core/admin/records.js';

/** Statuses that mean "the request did not run, try again later": the ones a client may resend. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** A first attempt and its resends, oldest first: what a user meant to do once. */
export interface LogicalRequest {
  attempts: RequestRecord[];
}

/**
 * Groups requests (oldest first) into logical requests. A request continues the logical request
 * of an identical earlier one (same client, same fingerprint: the caller_id is not part of it, so
 * a resend under a new caller_id is still recognised) when that one's last attempt was answered
 * 429 or 503 at most its Retry-After plus `resendWindowMs` before. Counting the first attempt
 * in, as `uas call` does.
 *
 * A request whose fields could not be read (a body that is not JSON, an unauthenticated request)
 * has a fingerprint of its method and path only, which any other such request shares; it is
 * never taken for a resend.
 */
export function groupLogicalRequests(
  records: readonly RequestRecord[],
  resendWindowMs: number,
): LogicalRequest[] {
  const all: LogicalRequest[] = [];
  const open = new Map<string, LogicalRequest>();
  for (const record of records) {
    if (record.fields === undefined) {
      all.push({ attempts: [record] });
      continue;
    }
    const key = `${record.client_id ?? ''}\n${record.fingerprint}`;
    const current = open.get(key);
    const last = current?.attempts[current.attempts.length - 1];
    if (current !== undefined && last !== undefined && isResendOf(record, last, resendWindowMs)) {
      current.attempts.push(record);
      continue;
    }
    const fresh = { attempts: [record] };
    all.push(fresh);
    open.set(key, fresh);
  }
  return all;
}

function isResendOf(record: RequestRecord, last: RequestRecord, windowMs: number): boolean {
  if (!RETRYABLE_STATUSES.has(last.status)) return false;
  const gap = record.at - last.at;
  return gap >= 0 && gap <= retryAfterMs(last) + windowMs;
}

/** The Retry-After of an answer in milliseconds; 0 when none was sent. */
export function retryAfterMs(record: RequestRecord): number {
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
