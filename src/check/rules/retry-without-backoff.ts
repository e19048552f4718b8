import { evidenceOf, firstFew, inSeconds, plural, type CheckRule } from '../check-rule.js';
import { retryWaits, type RetryWait } from '../logical-requests.js';
import { binomialTail, median } from '../statistics.js';
import { waitedRetryAfter, waitTolerance } from '../wait-tolerance.js';

/**
 * Retries whose waits do not grow. Judged on the client's own backoff (the wait minus the
 * Retry-After it was told), since the server's part grows or not by itself, and on successive
 * waits of one logical request, aggregated over many. Waits shorter than their Retry-After have
 * no backoff to judge (that is `retry-before-retry-after`'s business) and are left out.
 *
 * Why so cautious: with full jitter (uas's own client: random × 500 ms, then random × 1000 ms)
 * a single sequence's second wait is shorter than its first one time in four. Only a pattern
 * across sequences means something: the rule needs `minRetrySamples` pairs of successive waits,
 * and fails only when nearly all of them (`retryPatternShare`) fail to grow by more than the
 * scheduling noise ({@link waitTolerance}: 120 ms, or a tenth of the backoff when larger). For
 * full jitter a pair fails to grow by 120 ms under four times in ten, so all five of five pairs
 * would do about 0.7 % of the time (a correct client warned one run in 145), all eight of eight
 * about 0.035 %, and nine in ten of more pairs less often still; for a fixed delay it
 * is every pair, even when a loaded machine delays each resend by up to 110 ms.
 *
 * With more pairs, a smaller share is already more than chance: the rule also fails when a
 * correct client (a pair flat at most {@link CHANCE_FLAT_SHARE} of the time) would leave this
 * many pairs flat less than once in {@link CHANCE_RUNS} runs (22 of 30, 38 of 60). A few
 * resends that a loaded machine delays past the tolerance then no longer turn a fixed delay's
 * verdict to a pass, and jitter that never grows (a pair flat six times in ten) shows given
 * enough pairs.
 */
/**
 * The most pairs in ten that a client backing off with full jitter from a base of 500 ms or more
 * leaves flat by chance (uas's own client: 37 in 100).
 */
export const CHANCE_FLAT_SHARE = 0.4;

/** A share of flat pairs that chance gives a correct client less than once in this many runs is a pattern. */
export const CHANCE_RUNS = 3000;

export const retryWithoutBackoff: CheckRule = {
  id: 'retry-without-backoff',
  severity: 'warn',
  spec: '§7 rule 2 (retry with exponential backoff plus jitter)',
  fix: 'Grow the wait on each attempt: wait = Retry-After + random × min(cap, base × 2^(attempt − 1)), for example base 500 ms and cap 8 s, as uas’s client does.',
  evaluate({ logical, options }) {
    const pairs: [RetryWait, RetryWait][] = [];
    for (const request of logical) {
      const waits = retryWaits(request);
      for (let index = 1; index < waits.length; index++) {
        const pair: [RetryWait, RetryWait] = [waits[index - 1]!, waits[index]!];
        if (pair.every((wait) => waitedRetryAfter(wait, options))) pairs.push(pair);
      }
    }
    if (pairs.length < options.minRetrySamples) {
      return {
        status: 'not-exercised',
        reason: `${plural(pairs.length, 'pair')} of successive retries waited Retry-After; ${options.minRetrySamples} are needed to judge backoff`,
      };
    }
    const judged = pairs.map(([first, second]) => ({
      first,
      second,
      growth: second.backoffMs - first.backoffMs,
      tolerance: waitTolerance(Math.max(first.backoffMs, second.backoffMs), options),
    }));
    const flat = judged.filter(({ growth, tolerance }) => growth <= tolerance);
    const chance = binomialTail(pairs.length, CHANCE_FLAT_SHARE, flat.length);
    const nearlyAll = flat.length / pairs.length >= options.retryPatternShare;
    if (!nearlyAll && chance > 1 / CHANCE_RUNS) return { status: 'passed' };
    const typical = Math.round(median(judged.map(({ growth }) => growth)));
    const tolerance = Math.round(median(judged.map((pair) => pair.tolerance)));
    const shape = Math.abs(typical) <= tolerance ? 'stayed the same' : 'shrank';
    const shown = flat.map(
      ({ first, second }) => `${inSeconds(first.backoffMs)} → ${inSeconds(second.backoffMs)}`,
    );
    return {
      status: 'failed',
      message: `the backoff beyond Retry-After ${shape} from one retry to the next in ${flat.length} of ${plural(pairs.length, 'sequence')} (median change ${typical} ms, within ${tolerance} ms counted as none${nearlyAll ? '' : `; a client backing off with full jitter does this less than once in ${CHANCE_RUNS.toLocaleString('en-US')} runs`}); based on ${plural(pairs.length, 'pair')} of retries: backoffs ${firstFew(shown)}`,
      evidence: evidenceOf(
        flat.map(({ second }) => second.after),
        flat.map(
          ({ first, second }) =>
            `waits ${Math.round(first.waitMs)} ms then ${Math.round(second.waitMs)} ms (backoff ${Math.round(first.backoffMs)} → ${Math.round(second.backoffMs)} ms)`,
        ),
        {
          pairs: pairs.length,
          not_growing: flat.length,
          median_growth_ms: typical,
          tolerance_ms: tolerance,
        },
        flat.length,
      ),
    };
  },
};
