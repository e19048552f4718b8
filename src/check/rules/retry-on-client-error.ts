import type { RequestRecord } from '../../core/records/records.js';
import { evidenceOf, plural, type CheckRule } from '../check-rule.js';
import type { RuleContext, RuleVerdict } from '../check-rule.js';
import { drain, eachPaced, filterPaced, groupByPaced, type Steps } from '../paced.js';
import { keysOf } from '../record-keys.js';
import { retryAttemptOf } from '../logical-requests.js';

// 4xx answers that do say "try again": 408 Request Timeout, 425 Too Early, 429 Too Many Requests.
// 401 is left to the `unauthenticated` rule (and its requests were never read).
const TRANSIENT_4XX: ReadonlySet<number> = new Set([401, 408, 425, 429]);

/**
 * The identical request sent again shortly after a 4xx that is not transient (400, 403, 404,
 * 409, 422, ...): the answer cannot change, so the resend only spends the bucket. Identical means
 * the same fingerprint (the code included): a shopper who types another code after a wrong one
 * sends another request, which is fine.
 */
export const retryOnClientError: CheckRule = {
  id: 'retry-on-client-error',
  severity: 'error',
  spec: '§7 rules 1 and 2 (retrying is the answer to 429 only; other 4xx mean the request itself must change, RFC 9110 §15.5)',
  fix: 'Retry only 429 (and 503); on any other 4xx, show the problem to the user or fix the request, and send again only what the user changed.',
  evaluate: (context) => drain(clientErrorSteps(context)),
  steps: clientErrorSteps,
};

function* clientErrorSteps({ authenticated, logical, options }: RuleContext): Steps<RuleVerdict> {
  const readable = yield* filterPaced(authenticated, (record) => record.fields !== undefined);
  const refused = yield* filterPaced(readable, isFinalClientError);
  if (refused.length === 0) {
    return {
      status: 'not-exercised',
      reason: 'no request was answered with a 4xx other than 401 and 429',
    };
  }
  // A request counting its Retry-Attempt resends the attempt before it in its logical request,
  // which need not be the identical request just before it: of two tabs sending the same code at
  // once, one refused 429 and one answered 422, the first tab's retry follows its own 429.
  const attemptBefore = new Map<RequestRecord, RequestRecord>();
  yield* eachPaced(logical, ({ attempts }) => {
    for (let index = 1; index < attempts.length; index++)
      attemptBefore.set(attempts[index]!, attempts[index - 1]!);
  });
  const resends: { record: RequestRecord; after: RequestRecord }[] = [];
  const requests = yield* groupByPaced(readable, (record) => keysOf(record).sameRequest);
  yield* eachPaced(requests.values(), (same) => {
    for (let index = 1; index < same.length; index++) {
      const record = same[index]!;
      const before = countsAttempts(record) ? attemptBefore.get(record) : same[index - 1]!;
      if (
        before !== undefined &&
        keysOf(before).sameRequest === keysOf(record).sameRequest &&
        isFinalClientError(before) &&
        record.at - before.at <= options.clientErrorWindowMs &&
        !saysAnotherRequest(record, before)
      )
        resends.push({ record, after: before });
    }
  });
  if (resends.length === 0) return { status: 'passed' };
  return {
    status: 'failed',
    message: `${plural(resends.length, 'request')} repeated unchanged within ${options.clientErrorWindowMs / 1000} s of a ${resends[0]!.after.status} (${refused.length} 4xx answers in all)`,
    evidence: evidenceOf(
      resends.map(({ record }) => record),
      resends.map(
        ({ record, after }) =>
          `${record.operation ?? record.path} resent ${Math.round(record.at - after.at)} ms after ${after.status}${after.problem === undefined ? '' : ` ${after.problem}`}`,
      ),
      { client_errors: refused.length },
    ),
  };
}

/**
 * Whether `record` says it is not a resend of `before`, as logical requests are told apart:
 * another Idempotency-Key, or a Retry-Attempt not above the one before (a shopper's two tabs
 * submitting the same code at once).
 */
function saysAnotherRequest(record: RequestRecord, before: RequestRecord): boolean {
  const key = record.idempotency_key?.trim();
  if (key !== undefined && key !== '' && key !== before.idempotency_key?.trim()) return true;
  const attempt = retryAttemptOf(record);
  return attempt !== undefined && attempt <= (retryAttemptOf(before) ?? 0);
}

/** Whether `record` counts its attempts (a Retry-Attempt, and no Idempotency-Key to go by). */
function countsAttempts(record: RequestRecord): boolean {
  const key = record.idempotency_key?.trim();
  return (key === undefined || key === '') && retryAttemptOf(record) !== undefined;
}

function isFinalClientError(record: RequestRecord): boolean {
  return record.status >= 400 && record.status < 500 && !TRANSIENT_4XX.has(record.status);
}
