import type { RequestRecord } from '../core/records/records.js';
import { callerKeyOf } from './caller-id-of.js';
import type { CheckSummary } from './check-report.js';
import { endUserOf } from './end-user.js';
import { retryAfterMs, retryWaits, type LogicalRequest } from './logical-requests.js';
import { delayStats } from './statistics.js';

/** What the service requests held: counts, people, retries and time, whatever the rules say. */
export function summarizeRequests(
  requests: readonly RequestRecord[],
  logical: readonly LogicalRequest[],
  ignored: number,
): CheckSummary {
  const waits = logical.flatMap(retryWaits);
  const first = requests[0];
  const last = requests[requests.length - 1];
  return {
    requests: requests.length,
    ignored,
    by_operation: countBy(requests, (record) => record.operation ?? 'unknown'),
    by_status: countBy(requests, (record) => String(record.status)),
    end_users: distinct(requests, endUserOf),
    caller_ids: distinct(requests, callerKeyOf),
    rate_limited: requests.filter((record) => record.status === 429).length,
    logical_requests: logical.length,
    retried: logical.filter(({ attempts }) => attempts.length > 1).length,
    attempts: countBy(logical, ({ attempts }) => String(attempts.length)),
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

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

function distinct<T>(items: readonly T[], key: (item: T) => string | undefined): number {
  const seen = new Set<string>();
  for (const item of items) {
    const value = key(item);
    if (value !== undefined) seen.add(value);
  }
  return seen.size;
}

// Formats a time taken from a record, not the clock; a time outside what Date holds is shown
// as its number rather than throwing.
function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}
