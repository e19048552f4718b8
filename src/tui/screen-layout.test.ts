import { describe, expect, it } from 'vitest';
import { screenLayout } from './screen-layout.js';

describe('screenLayout', () => {
  it('fills 80x24 with buckets, leaving the recent requests a third', () => {
    expect(screenLayout(24, 500, false)).toEqual({ pollRows: 11, bucketRows: 11, recentRows: 5 });
  });

  it('gives the recent requests the rows the buckets leave, however tall the terminal', () => {
    expect(screenLayout(40, 1, false)).toEqual({ pollRows: 21, bucketRows: 1, recentRows: 31 });
    expect(screenLayout(100, 3, false)).toEqual({ pollRows: 61, bucketRows: 3, recentRows: 89 });
    // One row for "no buckets yet" (or why they are not known).
    expect(screenLayout(40, 0, false).recentRows).toBe(31);
  });

  it('keeps the table its room while the help screen shows', () => {
    expect(screenLayout(40, 1, true)).toEqual({ pollRows: 21, bucketRows: 21, recentRows: 11 });
  });

  it('never leaves a list without rows on a tiny terminal', () => {
    expect(screenLayout(5, 10, false)).toEqual({ pollRows: 2, bucketRows: 2, recentRows: 2 });
  });
});
