import { evidenceOf, plural, type CheckRule } from '../check-rule.js';
import { certainRuns } from '../logical-requests.js';
import { maxOf } from '../statistics.js';
import { byFirstPastCap, capReached, describeRequest, notReached } from './retry-cap-exceeded.js';

/**
 * The identical request sent again past the cap, but each time after a full Retry-After and
 * without an Idempotency-Key or Retry-Attempt to say it is a retry: possibly a further attempt,
 * possibly the shopper's own new request once the client gave up (the records cannot tell).
 * A warning, where `retry-cap-exceeded` is an error for what is certain.
 */
export const retryCapPossiblyExceeded: CheckRule = {
  id: 'retry-cap-possibly-exceeded',
  severity: 'warn',
  spec: '§7 rule 2 and §8 (cap retries at 3 attempts)',
  fix: 'If these are retries, stop after 3 attempts. If they are new requests of the shopper, send an Idempotency-Key header (a new key for each logical request, the same on its retries) or a Retry-Attempt header (0, then 1, 2 on its retries), so that a retry can be told from a new request.',
  evaluate({ logical, options }) {
    const cap = options.maxAttempts;
    const reached = capReached(logical, cap);
    if (reached.length === 0) return notReached(cap);
    const unsure = byFirstPastCap(
      logical.filter(
        (request) =>
          request.attempts.length > cap && certainRuns(request).every((run) => run.length <= cap),
      ),
      ({ attempts }) => [attempts[cap]!],
    );
    if (unsure.length === 0) return { status: 'passed' };
    const most = maxOf(unsure.map(({ attempts }) => attempts.length));
    return {
      status: 'failed',
      message: `${plural(unsure.length, 'request')} sent identically more than ${cap} times (up to ${most}), each time after a full Retry-After and without Idempotency-Key or Retry-Attempt: possibly new requests of the user, possibly attempts past the cap`,
      evidence: evidenceOf(
        unsure.flatMap(({ attempts }) => attempts.slice(cap)),
        unsure.map(({ attempts }) => describeRequest(attempts)),
        { most_attempts: most, reached_cap: reached.length },
        unsure.length,
      ),
    };
  },
};
