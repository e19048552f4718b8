import { evidenceOf, plural, type CheckRule } from '../check-rule.js';
import { retryAfterMs, retryWaits } from '../logical-requests.js';
import { formatDelay, formatDuration } from '../../text/duration.js';
import { minOf } from '../statistics.js';

/**
 * A resend after a 429 earlier than its Retry-After: the bucket cannot have refilled, so the
 * resend is refused too and only drains whatever refills. Measured between the two requests'
 * arrival times, which can only make a wait look longer than the client's (the 429 reached the
 * client after it was recorded); the tolerance covers timers that fire a little early.
 */
export const retryBeforeRetryAfter: CheckRule = {
  id: 'retry-before-retry-after',
  severity: 'error',
  spec: '§7 rules 1 and 2 (on 429, retry with backoff); Retry-After as in RFC 9110 §10.2.3, sent with every 429',
  fix: 'On a 429, wait at least the Retry-After it carries (seconds, or an HTTP date), then add your jittered backoff on top: wait = Retry-After + random × backoff.',
  evaluate({ logical, options }) {
    const afterRetryAfter = logical
      .flatMap(retryWaits)
      .filter(({ before }) => before.status === 429 && retryAfterMs(before) > 0);
    if (afterRetryAfter.length === 0) {
      const told = logical.some(({ attempts }) =>
        attempts.some((record) => record.status === 429 && retryAfterMs(record) > 0),
      );
      // A 429 with Retry-After that nobody resent still shows the client did not jump the gun.
      if (told) return { status: 'passed' };
      return { status: 'not-exercised', reason: 'no 429 with a Retry-After was answered' };
    }
    const early = afterRetryAfter.filter(
      (wait) => wait.waitMs < retryAfterMs(wait.before) - options.retryAfterToleranceMs,
    );
    if (early.length === 0) return { status: 'passed' };
    const shortest = minOf(early.map((wait) => wait.waitMs - retryAfterMs(wait.before)));
    return {
      status: 'failed',
      message: `${plural(early.length, 'resend')} of ${afterRetryAfter.length} after a 429 came before its Retry-After (up to ${formatDelay(-shortest)} early)`,
      evidence: evidenceOf(
        early.map((wait) => wait.after),
        early.map(
          (wait) =>
            `resent after ${formatDelay(wait.waitMs)}; Retry-After ${retryAfterWords(wait.before.retry_after)}`,
        ),
        { resends_after_429: afterRetryAfter.length, most_early_ms: Math.round(-shortest) },
        early.length,
      ),
    };
  },
};

/** A Retry-After as sent (seconds), and in units when it is long enough to need them. */
function retryAfterWords(seconds: number | undefined): string {
  if (seconds === undefined || seconds < 60) return `${seconds} s`;
  return `${seconds} s (${formatDuration(seconds * 1000)})`;
}
