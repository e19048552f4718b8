import { evidenceOf, plural, type CheckRule } from '../check-rule.js';
import { endUserLabel } from '../end-user.js';
import { RETRYABLE_STATUSES } from '../logical-requests.js';
import { maxOf } from '../statistics.js';

/**
 * More attempts for one logical request than the spec's cap. The cap is only put to the test
 * when an attempt at the cap was refused again; until then a client that never stops looks
 * exactly like one that stops at three, so the rule says it was not exercised.
 */
export const retryCapExceeded: CheckRule = {
  id: 'retry-cap-exceeded',
  severity: 'error',
  spec: '§7 rule 2 and §8 (cap retries at 3 attempts)',
  fix: 'Stop after 3 attempts in all (the first included) and report the 429 to the user and to your logs; persistent 429s mean misconfiguration or abuse, which more attempts make worse.',
  evaluate({ logical, options }) {
    const cap = options.maxAttempts;
    const reached = logical.filter(({ attempts }) =>
      attempts.slice(cap - 1).some((record) => RETRYABLE_STATUSES.has(record.status)),
    );
    if (reached.length === 0) {
      return {
        status: 'not-exercised',
        reason: `no request was refused ${cap} times in a row, so the cap was never reached`,
      };
    }
    const over = logical.filter(({ attempts }) => attempts.length > cap);
    if (over.length === 0) return { status: 'passed' };
    const most = maxOf(over.map(({ attempts }) => attempts.length));
    return {
      status: 'failed',
      message: `${plural(over.length, 'logical request')} made more than ${cap} attempts (up to ${most})`,
      evidence: evidenceOf(
        over.flatMap(({ attempts }) => attempts.slice(cap)),
        over.map(({ attempts }) => {
          const first = attempts[0]!;
          const who = endUserLabel(first);
          return `${first.operation ?? first.path}${who === undefined ? '' : ` ${who}`}: ${attempts.length} attempts`;
        }),
        { most_attempts: most, reached_cap: reached.length },
        over.length,
      ),
    };
  },
};
