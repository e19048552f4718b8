import type { RequestRecord } from '../core/records/records.js';
import type { CheckSummary } from './check-report.js';
import { retryAfterMs, retryWaits, type LogicalRequest } from './logical-requests.js';
import { drain, eachPaced, filterPaced, mapPaced, type Steps } from './paced.js';
import { keysOf } from './record-keys.js';
import { delayStats } from './statistics.js';

/** What the service requests held: counts, people, retries and time, whatever the rules say. */
export function summarizeRequests(
  requests: readonly RequestRecord[],
  logical: readonly LogicalRequest[],
  ignored: number,
): CheckSummary {
  return drain(summarizeRequestsSteps(requests, logical, ignored));
}

/** {@link summarizeRequests}, yielding now and then (see `paced.ts`). */
export function* summarizeRequestsSteps(
  requests: readonly RequestRecord[],
  logical: readonly LogicalRequest[],
  ignored: number,
): Steps<CheckSummary> {
  const waits = (yield* mapPaced(logical, retryWaits)).flat();
  const first = requests[0];
  const last = requests[requests.length - 1];
  return {
    requests: requests.length,
    ignored,
    by_operation: yield* countBy(requests, (record) => record.operation ?? 'unknown'),
    by_status: yield* countBy(requests, (record) => String(record.status)),
    end_users: yield* distinct(requests, (record) => keysOf(record).endUser),
    caller_ids: yield* distinct(requests, (record) => keysOf(record).callerKey),
    rate_limited: (yield* filterPaced(requests, (record) => record.status === 429)).length,
    logical_requests: logical.length,
    retried: (yield* filterPaced(logical, ({ attempts }) => attempts.length > 1)).length,
    attempts: yield* countBy(logical, ({ attempts }) => String(attempts.length)),
    retry_delay_ms: delayStats(waits.map((wait) => wait.waitMs)),
    retry_delay_beyond_retry_after_ms: delayStats(
      waits.filter((wait) => retryAfterMs(wait.before) > 0).map((wait) => wait.backoffMs),
    ),
    span:
      first === undefined || last === undefined
        ? null
        : {
            from: isoTime(first.at),
            to: isoTime(last.at),
            duration_ms: Math.round(last.at - first.at),
          },
  };
}

function* countBy<T>(items: readonly T[], key: (item: T) => string): Steps<Record<string, number>> {
  const counts: Record<string, number> = {};
  yield* eachPaced(items, (item) => {
    const name = key(item);
    counts[name] = (counts[name] ?? 0) + 1;
  });
  return counts;
}

function* distinct<T>(items: readonly T[], key: (item: T) => string | undefined): Steps<number> {
  const seen = new Set<string>();
  yield* eachPaced(items, (item) => {
    const value = key(item);
    if (value !== undefined) seen.add(value);
  });
  return seen.size;
}

// Formats a time taken from a record, not the clock; a time outside what Date holds is shown
// as its number rather than throwing.
function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}
