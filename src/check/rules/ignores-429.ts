import type { RequestRecord } from '../../core/admin/records.js';
import { evidenceOf, plural, quoted, type CheckRule } from '../check-rule.js';
import { endUserOf } from '../end-user.js';
import { groupBy } from '../group-by.js';
import { retryAfterMs } from '../logical-requests.js';

/**
 * A bucket hammered while empty: one sender keeps sending to a bucket it was told is empty,
 * within the Retry-After of the last 429, and keeps getting 429s. A sender is one end-user in one
 * bucket (their own requests, resends or not): a shopper behind the same address as another did
 * not see the other's 429. Runs of such 429s (each one extends the time the bucket is known
 * empty) count; a run of `persistent429Count` or more is persistent.
 */
export const ignores429: CheckRule = {
  id: 'ignores-429',
  severity: 'error',
  spec: '§7 rule 2 (persistent 429 responses indicate misconfiguration or abuse; log and alert on 429 responses)',
  fix: 'After a 429, send nothing more for that caller until its Retry-After has passed (queue or refuse in your backend), log and alert on 429s, and find out why the bucket is empty: a shared caller_id, a loop, a bot.',
  evaluate({ authenticated, options }) {
    // Without a Retry-After the sender was never told how long the bucket stays empty.
    const told = authenticated.some((record) => record.status === 429 && retryAfterMs(record) > 0);
    if (!told) return { status: 'not-exercised', reason: 'no 429 with a Retry-After was answered' };
    const senders = groupBy(
      authenticated.filter((record) => record.bucket !== undefined),
      (record) => `${record.bucket}\n${endUserOf(record) ?? record.fingerprint}`,
    );
    const runs: RequestRecord[][] = [];
    for (const requests of senders.values()) runs.push(...ignoredRuns(requests, options));
    const persistent = runs.filter((run) => run.length >= options.persistent429Count);
    if (persistent.length === 0) return { status: 'passed' };
    persistent.sort((a, b) => b.length - a.length);
    const worst = persistent[0]!;
    const seconds = (worst[worst.length - 1]!.at - worst[0]!.at) / 1000;
    return {
      status: 'failed',
      message: `${plural(persistent.length, 'sender')} kept sending to an empty bucket within its Retry-After; ${quoted(worst[0]!.bucket ?? '')} got ${worst.length} such 429s in ${seconds.toFixed(1)} s`,
      evidence: evidenceOf(
        persistent.flat(),
        persistent.map((run) => `${run[0]!.bucket ?? ''}: ${run.length} 429s`),
        { most_429s: worst.length },
        persistent.length,
      ),
    };
  },
};

/** The runs of 429s a sender got while it knew the bucket was empty. */
function ignoredRuns(
  requests: readonly RequestRecord[],
  options: { retryAfterToleranceMs: number },
): RequestRecord[][] {
  const runs: RequestRecord[][] = [];
  let emptyUntil = Number.NEGATIVE_INFINITY;
  let run: RequestRecord[] = [];
  for (const record of requests) {
    const ignored = record.at < emptyUntil - options.retryAfterToleranceMs;
    if (ignored && record.status === 429) run.push(record);
    else if (!ignored && run.length > 0) {
      runs.push(run);
      run = [];
    }
    if (record.status === 429) emptyUntil = Math.max(emptyUntil, record.at + retryAfterMs(record));
  }
  if (run.length > 0) runs.push(run);
  return runs;
}
