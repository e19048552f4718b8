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
