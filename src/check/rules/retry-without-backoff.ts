import { evidenceOf, plural, type CheckRule } from '../check-rule.js';
import { retryWaits, type RetryWait } from '../logical-requests.js';
import { median } from '../statistics.js';

/**
 * Retries whose waits do not grow. Judged on the client's own backoff (the wait minus the
 * Retry-After it was told), since the server's part grows or not by itself, and on successive
 * waits of one logical request, aggregated over many.
 *
 * Why so cautious: with full jitter (uas's own client: random × 500 ms, then random × 1000 ms)
 * a single sequence's second wait is shorter than its first one time in four. Only a pattern
 * across sequences means something: the rule needs `minRetrySamples` pairs of successive waits,
 * and fails only when nearly all of them (`retryPatternShare`) fail to grow by more than
 * `jitterToleranceMs` (the noise of measuring waits on a busy machine). For full jitter a pair
 * fails to grow by 50 ms three times in ten, so all five of five pairs do 0.3^5 ≈ 0.2 % of the
 * time, and nine in ten of more pairs vanishingly often; for a fixed delay it is every pair.
 */
export const retryWithoutBackoff: CheckRule = {
  id: 'retry-without-backoff',
  severity: 'warn',
  spec: '§7 rule 2 (retry with exponential backoff plus jitter)',
  fix: 'Grow the wait on each attempt: wait = Retry-After + random × min(cap, base × 2^(attempt − 1)), for example base 500 ms and cap 8 s, as uas’s client does.',
  evaluate({ logical, options }) {
    const pairs: [RetryWait, RetryWait][] = [];
    for (const request of logical) {
      const waits = retryWaits(request);
      for (let index = 1; index < waits.length; index++)
        pairs.push([waits[index - 1]!, waits[index]!]);
    }
    if (pairs.length < options.minRetrySamples) {
      return {
        status: 'not-exercised',
        reason: `${plural(pairs.length, 'request')} retried twice or more; ${options.minRetrySamples} are needed to judge backoff`,
      };
    }
    const growth = pairs.map(([first, second]) => second.backoffMs - first.backoffMs);
    const flat = pairs.filter((_, index) => growth[index]! <= options.jitterToleranceMs);
    if (flat.length / pairs.length < options.retryPatternShare) return { status: 'passed' };
    const typical = Math.round(median(growth));
    const shape = Math.abs(typical) <= options.jitterToleranceMs ? 'stayed the same' : 'shrank';
    return {
      status: 'failed',
      message: `the backoff beyond Retry-After ${shape} from one retry to the next in ${flat.length} of ${plural(pairs.length, 'sequence')} (median change ${typical} ms)`,
      evidence: evidenceOf(
        flat.map(([, second]) => second.after),
        flat.map(
          ([first, second]) =>
            `waits ${Math.round(first.waitMs)} ms then ${Math.round(second.waitMs)} ms (backoff ${Math.round(first.backoffMs)} → ${Math.round(second.backoffMs)} ms)`,
        ),
        { pairs: pairs.length, not_growing: flat.length, median_growth_ms: typical },
        flat.length,
      ),
    };
  },
};
