import {
  evidenceOf,
  firstFew,
  inSeconds,
  plural,
  type CheckRule,
  type RuleEvidence,
  type RuleVerdict,
} from '../check-rule.js';
import { retryWaits, type RetryWait } from '../logical-requests.js';
import { median } from '../statistics.js';
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
 * about 0.035 %, 9 of 10 about 0.09 % (one run in 1,150), and nine in ten of 20 pairs or more
 * under 0.001 %; for a fixed delay it is every pair, even when a loaded machine delays each
 * resend by up to 110 ms.
 *
 * A loaded machine can make a few resends of a client that waits Retry-After alone come more
 * than 120 ms late, which reads as growth and took such a client under nine pairs in ten. So the
 * rule also fails when at least {@link RETRY_AFTER_ALONE_SHARE} of the pairs waited Retry-After
 * alone: both backoffs within the scheduling noise of none. Full jitter does that to a pair
 * about 3 times in 100 (a first backoff under 120 ms one time in four, a second one in eight),
 * so 6 of 8 pairs about once in 60 million runs; a client with half uas's base (250 ms), one
 * pair in nine and 6 of 8 once in 20,000. Late resends only make backoffs look longer, so a
 * loaded machine moves a correct client away from this sign, never towards it.
 */
export const RETRY_AFTER_ALONE_SHARE = 0.75;

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
    if (flat.length / pairs.length >= options.retryPatternShare) return didNotGrow(judged, flat);
    const noise = waitTolerance(0, options);
    const alone = judged.filter(
      ({ first, second }) => first.backoffMs <= noise && second.backoffMs <= noise,
    );
    if (alone.length / pairs.length < RETRY_AFTER_ALONE_SHARE) return { status: 'passed' };
    return {
      status: 'failed',
      message: `the retries waited Retry-After alone, with no backoff beyond it (${noise} ms at most, the scheduling noise), in ${alone.length} of ${plural(pairs.length, 'pair')} of retries: backoffs ${backoffs(alone)}`,
      evidence: pairEvidence(alone, {
        pairs: pairs.length,
        retry_after_alone: alone.length,
        tolerance_ms: noise,
      }),
    };
  },
};

/** Two successive retries of one request, the growth of their backoff, and the noise allowed. */
interface JudgedPair {
  first: RetryWait;
  second: RetryWait;
  growth: number;
  tolerance: number;
}

/** The finding of backoffs that stayed the same or shrank in nearly all of the pairs `judged`. */
function didNotGrow(judged: JudgedPair[], flat: JudgedPair[]): RuleVerdict {
  const typical = Math.round(median(judged.map(({ growth }) => growth)));
  const tolerance = Math.round(median(judged.map((pair) => pair.tolerance)));
  const shape = Math.abs(typical) <= tolerance ? 'stayed the same' : 'shrank';
  return {
    status: 'failed',
    message: `the backoff beyond Retry-After ${shape} from one retry to the next in ${flat.length} of ${plural(judged.length, 'sequence')} (median change ${typical} ms, within ${tolerance} ms counted as none); based on ${plural(judged.length, 'pair')} of retries: backoffs ${backoffs(flat)}`,
    evidence: pairEvidence(flat, {
      pairs: judged.length,
      not_growing: flat.length,
      median_growth_ms: typical,
      tolerance_ms: tolerance,
    }),
  };
}

/** The first few backoffs of `pairs`, as a finding lists them: "0.00 s → 0.00 s ×8". */
const backoffs = (pairs: readonly JudgedPair[]): string =>
  firstFew(
    pairs.map(
      ({ first, second }) => `${inSeconds(first.backoffMs)} → ${inSeconds(second.backoffMs)}`,
    ),
  );

/** Evidence of the pairs found: each second retry, with both waits. */
function pairEvidence(pairs: readonly JudgedPair[], figures: Record<string, number>): RuleEvidence {
  return evidenceOf(
    pairs.map(({ second }) => second.after),
    pairs.map(
      ({ first, second }) =>
        `waits ${Math.round(first.waitMs)} ms then ${Math.round(second.waitMs)} ms (backoff ${Math.round(first.backoffMs)} → ${Math.round(second.backoffMs)} ms)`,
    ),
    figures,
    pairs.length,
  );
}
