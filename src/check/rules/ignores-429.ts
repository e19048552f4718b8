import type { RequestRecord } from '../../core/records/records.js';
import { evidenceOf, plural, quoted, type CheckRule } from '../check-rule.js';
import { keysOf } from '../record-keys.js';
import { groupBy } from '../group-by.js';
import { retryAfterMs, type LogicalRequest } from '../logical-requests.js';
import { minOf, maxOf } from '../statistics.js';

/**
 * A bucket hammered while empty: one sender keeps sending to a bucket it was told is empty,
 * within the Retry-After of the last 429, and keeps getting 429s. A sender is one end-user in one
 * bucket (their own requests, resends or not): a shopper behind the same address as another did
 * not see the other's 429. Runs of such 429s count; a run of `persistent429Count` or more is
 * persistent. A run ends at any answer that shows the bucket had a token (a 200, a 4xx other
 * than 429).
 *
 * A 429 injected while the bucket had tokens (`--chaos`, a scripted fault: outcome
 * `injected-429`) says nothing of the bucket: it asks for a wait before that very request is sent
 * again, and only resends of it within that wait count. A real 429 (the bucket was empty) covers
 * every request of the sender.
 */
export const ignores429: CheckRule = {
  id: 'ignores-429',
  severity: 'error',
  spec: '§7 rule 2 (persistent 429 responses indicate misconfiguration or abuse; log and alert on 429 responses)',
  fix: 'After a 429, send nothing more for that caller until its Retry-After has passed (queue or refuse in your backend), log and alert on 429s, and find out why the bucket is empty: a shared caller_id, a loop, a bot.',
  evaluate({ authenticated, logical, options }) {
    // Without a Retry-After the sender was never told how long the bucket stays empty.
    const told = authenticated.some((record) => record.status === 429 && retryAfterMs(record) > 0);
    if (!told) return { status: 'not-exercised', reason: 'no 429 with a Retry-After was answered' };
    const senders = groupBy(
      authenticated,
      (record) => `${bucketKey(record)}\n${keysOf(record).endUser ?? record.fingerprint}`,
    );
    const requestOf = new Map<RequestRecord, LogicalRequest>();
    for (const request of logical)
      for (const record of request.attempts) requestOf.set(record, request);
    const runs: RequestRecord[][] = [];
    for (const requests of senders.values()) {
      runs.push(
        ...ignoredRuns(requests, (record) => requestOf.get(record) ?? record.fingerprint, options),
      );
    }
    const persistent = runs.filter((run) => run.length >= options.persistent429Count);
    if (persistent.length === 0) return { status: 'passed' };
    persistent.sort((a, b) => b.length - a.length);
    const worst = persistent[0]!;
    const seconds = (worst[worst.length - 1]!.at - worst[0]!.at) / 1000;
    const injected = persistent.flat().filter(isInjectedOnTokens);
    const got = `${bucketWords(worst[0]!)} got ${worst.length} such 429s in ${seconds.toFixed(1)} s`;
    return {
      status: 'failed',
      message:
        injected.length === 0
          ? `${plural(persistent.length, 'sender')} kept sending to an empty bucket within its Retry-After; ${got}`
          : `${plural(persistent.length, 'sender')} kept resending within the Retry-After of a 429; ${got}; ${injectedNote(injected, persistent.flat().length)}`,
      evidence: evidenceOf(
        persistent.flat(),
        persistent.map((run) => `${run[0]!.bucket ?? '(bucket not named)'}: ${run.length} 429s`),
        { most_429s: worst.length, injected_429s: injected.length },
        persistent.length,
      ),
    };
  },
};

/**
 * The bucket a record was counted in: the one it names, or, when a real service behind
 * `uas serve --upstream` named none, the one its caller_id (or, without one, its client) selects.
 */
function bucketKey(record: RequestRecord): string {
  if (record.bucket !== undefined) return record.bucket;
  return `unnamed\n${keysOf(record).callerKey ?? record.client_id ?? ''}`;
}

/** What stands for the bucket of a 429 that named none (a real service may not). */
const UNNAMED = 'a bucket its answers did not name';

/** The bucket of a run's first 429, quoted, or said to be unnamed. */
function bucketWords(record: RequestRecord): string {
  return record.bucket === undefined ? UNNAMED : quoted(record.bucket);
}

/**
 * A 429 put there by chaos or a scripted fault while the bucket had tokens: the record's outcome
 * says it was injected, and its tokens left that the bucket was not empty.
 */
export function isInjectedOnTokens(record: RequestRecord): boolean {
  return record.status === 429 && record.outcome === 'injected-429' && record.remaining !== 0;
}

/** "all 6 injected by --chaos (or a scripted fault) while the bucket had 4 tokens: it was not empty" */
function injectedNote(injected: readonly RequestRecord[], all: number): string {
  const tokens = injected.flatMap((record) =>
    record.remaining === undefined ? [] : [record.remaining],
  );
  const had =
    tokens.length === 0
      ? 'had tokens'
      : minOf(tokens) === maxOf(tokens)
        ? `had ${plural(minOf(tokens), 'token')}`
        : `had ${minOf(tokens)} to ${maxOf(tokens)} tokens`;
  const which = injected.length === all ? `all ${all}` : `${injected.length} of ${all}`;
  return `${which} injected by --chaos (or a scripted fault) while the bucket ${had}: the bucket was not empty`;
}

/**
 * The runs of 429s a sender got while it knew to wait: within the Retry-After of a real 429 (any
 * of its requests), or of an injected 429 of the same logical request (`requestOf`: identical
 * requests told apart by their Idempotency-Key or Retry-Attempt are not the same one).
 */
function ignoredRuns(
  requests: readonly RequestRecord[],
  requestOf: (record: RequestRecord) => unknown,
  options: { retryAfterToleranceMs: number },
): RequestRecord[][] {
  const runs: RequestRecord[][] = [];
  let emptyUntil = Number.NEGATIVE_INFINITY;
  const waitUntil = new Map<unknown, number>();
  let run: RequestRecord[] = [];
  for (const record of requests) {
    const request = requestOf(record);
    const until = Math.max(emptyUntil, waitUntil.get(request) ?? emptyUntil);
    const ignored = record.status === 429 && record.at < until - options.retryAfterToleranceMs;
    if (ignored) run.push(record);
    else if (run.length > 0) {
      runs.push(run);
      run = [];
    }
    if (record.status === 429) {
      const end = record.at + retryAfterMs(record);
      waitUntil.set(request, Math.max(waitUntil.get(request) ?? end, end));
      if (!isInjectedOnTokens(record)) emptyUntil = Math.max(emptyUntil, end);
    } else if (record.outcome !== 'injected-fault') {
      // The bucket had a token: whatever the sender was told before no longer holds.
      emptyUntil = Number.NEGATIVE_INFINITY;
      waitUntil.clear();
    }
  }
  if (run.length > 0) runs.push(run);
  return runs;
}
