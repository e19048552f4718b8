import { describe, expect, it } from 'vitest';
import { delayStats, densestWindow, maxOf, median, minOf } from './statistics.js';

describe('statistics', () => {
  it('takes the median of odd and even counts, whatever the order', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('sums up delays in whole milliseconds, or null for none', () => {
    expect(delayStats([1000.4, 1200.6, 3000])).toEqual({
      count: 3,
      min: 1000,
      median: 1201,
      max: 3000,
    });
    expect(delayStats([])).toBeNull();
  });

  it('finds the most values within one window, and where it starts', () => {
    expect(densestWindow([0, 300, 305, 310, 900, 302], 10)).toEqual({ count: 4, start: 300 });
    expect(densestWindow([], 10).count).toBe(0);
  });

  it('takes the minimum and maximum of more values than a call can spread', () => {
    const many = Array.from({ length: 300_000 }, (_, index) => index);
    expect(minOf(many)).toBe(0);
    expect(maxOf(many)).toBe(299_999);
  });
});
