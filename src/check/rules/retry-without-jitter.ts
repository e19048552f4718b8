import type { ResolvedCheckOptions } from '../check-options.js';
import {
  evidenceOf,
  firstFew,
  inSeconds,
  plural,
  type CheckRule,
  type RuleContext,
  type RuleVerdict,
} from '../check-rule.js';
import { groupBy } from '../group-by.js';
import type { RetryWait } from '../logical-requests.js';
import { retryAfterMs, retryWaits } from '../logical-requests.js';
import { drain, mapPaced, type Steps } from '../paced.js';
import { densestWindow, median } from '../statistics.js';
import { waitTolerance } from '../wait-tolerance.js';

/**
 * Retries without jitter: callers told to come back at the same moment come back together and
 * empty the refilled bucket at once. Two signs, each judged only on enough samples:
 *
 * - identical waits: among the retries after the same attempt (the first, the second, ...), the
 *   waits, or the backoffs beyond Retry-After, are equal within the scheduling noise
 *   ({@link waitTolerance}: 120 ms, or a tenth of the typical backoff when larger) for nearly
 *   all (`retryPatternShare`) of at least `minJitterSamples`. Any real jitter spreads them over
 *   hundreds of milliseconds (uas's client: 0 to 500 ms after the first attempt), so nine in ten
 *   landing within 120 ms by chance seldom happens; a fixed delay, or waiting exactly
 *   Retry-After, puts all of them there, even when a busy machine delays each by up to 110 ms.
 * - a herd: at least `herdMinCallers` logical requests whose retries were due at the same moment
 *   (within `herdWindowMs` of each other: the 429's time plus its Retry-After) come back within
 *   one `herdWindowMs` window, nearly all of them. Jitter too wide for the first sign but
 *   narrower than the window (80 ms, say) still shows here. Comparing against the due moments, not raw counts, keeps a
 *   busy but jittered run quiet: a hundred shoppers refused at once and spread over 500 ms put
 *   about a fifth of them in any 100 ms.
 */
export const retryWithoutJitter: CheckRule = {
  id: 'retry-without-jitter',
  severity: 'warn',
  spec: '§7 rule 2 (retry with exponential backoff plus jitter)',
  fix: 'Add random jitter to every wait: wait = Retry-After + random × backoff (full jitter), so that callers told the same Retry-After spread out instead of returning together.',
  evaluate: (context) => drain(jitterSteps(context)),
  steps: jitterSteps,
};

function* jitterSteps({ logical, options }: RuleContext): Steps<RuleVerdict> {
  const perRequest = yield* mapPaced(logical, retryWaits);
  const waits = perRequest.flat();
  yield;
  const identical = identicalWaits(waits, options);
  yield;
  const herd = largestHerd(perRequest, options);
  if (identical === undefined && herd === undefined) {
    return {
      status: 'not-exercised',
      reason: `fewer than ${options.minJitterSamples} retries after the same attempt, and no ${options.herdMinCallers} callers due back at once`,
    };
  }
  if (identical?.verdict.status === 'failed') return identical.verdict;
  if (herd?.status === 'failed') return herd;
  return { status: 'passed' };
}

/** Undefined when no attempt number had enough retries to judge. */
function identicalWaits(
  waits: readonly RetryWait[],
  options: ResolvedCheckOptions,
): { verdict: RuleVerdict } | undefined {
  let judged = false;
  for (const [index, group] of groupBy(waits, (wait) => wait.index)) {
    if (group.length < options.minJitterSamples) continue;
    judged = true;
    // One tolerance for the group, from its typical backoff: the noise is the machine's.
    const tolerance = waitTolerance(median(group.map((wait) => wait.backoffMs)), options);
    for (const measure of ['waitMs', 'backoffMs'] as const) {
      const values = group.map((wait) => wait[measure]);
      const densest = densestWindow(values, tolerance);
      if (densest.count / group.length < options.retryPatternShare) continue;
      const alike = group.filter(
        (wait) => wait[measure] >= densest.start && wait[measure] <= densest.start + tolerance,
      );
      const what = measure === 'waitMs' ? 'waited' : 'waited beyond Retry-After';
      const shown = [...values].sort((a, b) => a - b).map(inSeconds);
      return {
        verdict: {
          status: 'failed',
          message: `${densest.count} of ${plural(group.length, 'retry', 'retries')} after attempt ${index} ${what} the same ${inSeconds(densest.start)} (within ${tolerance} ms); based on ${plural(group.length, 'retry', 'retries')}: ${measure === 'waitMs' ? 'waits' : 'backoffs'} ${firstFew(shown)}`,
          evidence: evidenceOf(
            alike.map((wait) => wait.after),
            alike.map((wait) => `waited ${Math.round(wait.waitMs)} ms`),
            {
              retries: group.length,
              identical: densest.count,
              attempt: index,
              tolerance_ms: tolerance,
            },
            densest.count,
          ),
        },
      };
    }
  }
  return judged ? { verdict: { status: 'passed' } } : undefined;
}

/** Undefined when no moment had enough callers due back to judge. */
function largestHerd(
  perRequest: readonly (readonly RetryWait[])[],
  options: ResolvedCheckOptions,
): RuleVerdict | undefined {
  const width = options.herdWindowMs;
  const resends = perRequest
    .flatMap((waits, caller) =>
      waits.map((wait) => ({
        wait,
        caller,
        due: wait.before.at + retryAfterMs(wait.before),
      })),
    )
    .sort((a, b) => a.due - b.due);
  let judged = false;
  let worst: { share: number; group: typeof resends; start: number; count: number } | undefined;
  // Half-overlapping tiles of the due moments: each resend is looked at a few times only (a flood
  // of a million stays linear), and any herd due within half a window lies whole in one tile.
  for (let start = 0; start < resends.length;) {
    const from = resends[start]!.due;
    let end = start;
    while (end < resends.length && resends[end]!.due <= from + width) end++;
    const group = resends.slice(start, end);
    const callers = new Set(group.map((entry) => entry.caller)).size;
    if (callers >= options.herdMinCallers) {
      judged = true;
      const densest = densestWindow(
        group.map((entry) => entry.wait.after.at),
        width,
      );
      const share = densest.count / group.length;
      if (share >= options.retryPatternShare && (worst === undefined || share > worst.share))
        worst = { share, group, start: densest.start, count: densest.count };
    }
    let next = start + 1;
    while (next < resends.length && resends[next]!.due <= from + width / 2) next++;
    start = next;
  }
  if (!judged) return undefined;
  if (worst === undefined) return { status: 'passed' };
  const { group, start, count } = worst;
  const bunched = group.filter(
    (entry) => entry.wait.after.at >= start && entry.wait.after.at <= start + width,
  );
  return {
    status: 'failed',
    message: `${count} of ${group.length} retries of different callers due back at the same moment came back within ${width} ms of each other`,
    evidence: evidenceOf(
      bunched.map((entry) => entry.wait.after),
      bunched.map((entry) => `waited ${Math.round(entry.wait.waitMs)} ms`),
      { due_together: group.length, bunched: count },
      count,
    ),
  };
}
