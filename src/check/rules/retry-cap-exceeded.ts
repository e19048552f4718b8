import type { RequestRecord } from '../../core/records/records.js';
import { evidenceOf, oldestFirst, plural, type CheckRule } from '../check-rule.js';
import { endUserLabel } from '../end-user.js';
import { certainRuns, RETRYABLE_STATUSES, type LogicalRequest } from '../logical-requests.js';
import { maxOf } from '../statistics.js';

/**
 * More attempts for one logical request than the spec's cap, for certain: every resend up to the
 * one past the cap carried the same Idempotency-Key, a higher Retry-Attempt, or came before the
 * Retry-After of the attempt before it was over. An identical request after a full Retry-After
 * may be the shopper's own new request: `retry-cap-possibly-exceeded` warns of those.
 *
 * The cap is only put to the test when an attempt at the cap was refused again; until then a
 * client that never stops looks exactly like one that stops at three, so the rule says it was
 * not exercised.
 */
export const retryCapExceeded: CheckRule = {
  id: 'retry-cap-exceeded',
  severity: 'error',
  spec: '§7 rule 2 and §8 (cap retries at 3 attempts)',
  fix: 'Stop after 3 attempts in all (the first included) and report the 429 to the user and to your logs; persistent 429s mean misconfiguration or abuse, which more attempts make worse.',
  evaluate({ logical, options }) {
    const cap = options.maxAttempts;
    const reached = capReached(logical, cap);
    if (reached.length === 0) return notReached(cap);
    const over = byFirstPastCap(
      logical
        .map((request) => ({
          request,
          runs: certainRuns(request).filter((run) => run.length > cap),
        }))
        .filter(({ runs }) => runs.length > 0),
      ({ runs }) => runs.map((run) => run[cap]!),
    );
    if (over.length === 0) return { status: 'passed' };
    const most = maxOf(over.flatMap(({ runs }) => runs.map((run) => run.length)));
    return {
      status: 'failed',
      message: `${plural(over.length, 'logical request')} made more than ${cap} attempts (up to ${most})`,
      evidence: evidenceOf(
        over.flatMap(({ runs }) => runs.flatMap((run) => run.slice(cap))),
        over.map(({ runs }) => describeRequest(runs[0]!)),
        { most_attempts: most, reached_cap: reached.length },
        over.length,
      ),
    };
  },
};

/**
 * Items in the order of their first attempt past the cap, as the evidence lists its requests
 * (oldest first), so that the example values name the requests shown, in the same order.
 */
export function byFirstPastCap<T>(items: T[], firstsPast: (item: T) => RequestRecord[]): T[] {
  const first = (item: T) => firstsPast(item).reduce((a, b) => (oldestFirst(b, a) < 0 ? b : a));
  return items
    .map((item) => ({ item, past: first(item) }))
    .sort((a, b) => oldestFirst(a.past, b.past))
    .map(({ item }) => item);
}

/** The logical requests whose attempt at the cap, or a later one, was refused again. */
export function capReached(logical: readonly LogicalRequest[], cap: number): LogicalRequest[] {
  return logical.filter(({ attempts }) =>
    attempts.slice(cap - 1).some((record) => RETRYABLE_STATUSES.has(record.status)),
  );
}

/** The verdict of a cap rule when no request was refused that many times. */
export function notReached(cap: number): { status: 'not-exercised'; reason: string } {
  return {
    status: 'not-exercised',
    reason: `no request was refused ${cap} times in a row, so the cap was never reached`,
  };
}

/** "exists a@example.com: 4 attempts" */
export function describeRequest(attempts: readonly RequestRecord[]): string {
  const first = attempts[0]!;
  const who = endUserLabel(first);
  return `${first.operation ?? first.path}${who === undefined ? '' : ` ${who}`}: ${attempts.length} attempts`;
}
