import type { DelayStats } from './check-report.js';

/** The median of `values` (the mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Smallest, median and largest, rounded to whole milliseconds; null for none. */
export function delayStats(values: readonly number[]): DelayStats | null {
  if (values.length === 0) return null;
  return {
    count: values.length,
    min: Math.round(minOf(values)),
    median: Math.round(median(values)),
    max: Math.round(maxOf(values)),
  };
}

/**
 * The most values that fit in one window `[start, start + width]`, and where it starts: how
 * bunched a set of times or waits is.
 */
export function densestWindow(
  values: readonly number[],
  width: number,
): { count: number; start: number } {
  const sorted = [...values].sort((a, b) => a - b);
  let best = { count: 0, start: Number.NaN };
  let low = 0;
  for (let high = 0; high < sorted.length; high++) {
    while ((sorted[high] as number) - (sorted[low] as number) > width) low++;
    if (high - low + 1 > best.count) best = { count: high - low + 1, start: sorted[low] as number };
  }
  return best;
}

/** The smallest value (Infinity for none); a loop, so any number of values fits. */
export function minOf(values: readonly number[]): number {
  let min = Number.POSITIVE_INFINITY;
  for (const value of values) if (value < min) min = value;
  return min;
}

/** The largest value (-Infinity for none); a loop, so any number of values fits. */
export function maxOf(values: readonly number[]): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const value of values) if (value > max) max = value;
  return max;
}

/**
 * The chance that `count` or more of `trials` independent trials succeed when each does with
 * probability `share` (the upper tail of the binomial distribution): how unlikely a count this
 * high is by chance alone. Summed term by term from the ratio of successive terms, in floating
 * point, so any number of trials fits without factorials.
 */
export function binomialTail(trials: number, share: number, count: number): number {
  if (count <= 0) return 1;
  if (count > trials) return 0;
  if (share <= 0) return 0;
  if (share >= 1) return 1;
  // The term of `count` successes, computed in logarithms: C(n, k) p^k (1-p)^(n-k).
  let logTerm = count * Math.log(share) + (trials - count) * Math.log1p(-share);
  for (let index = 0; index < count; index++)
    logTerm += Math.log(trials - index) - Math.log(index + 1);
  let term = Math.exp(logTerm);
  let sum = 0;
  const odds = share / (1 - share);
  for (let successes = count; successes <= trials && term > 0; successes++) {
    sum += term;
    term *= ((trials - successes) / (successes + 1)) * odds;
  }
  return Math.min(1, sum);
}
