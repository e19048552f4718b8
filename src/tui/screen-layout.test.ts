import { describe, expect, it } from 'vitest';
import { screenLayout } from './screen-layout.js';

describe('screenLayout', () => {
  it('fills 80x24 with buckets, leaving the recent requests a third', () => {
    expect(screenLayout(24, 500, false)).toEqual({
      pollRows: 11,
      bucketRows: 11,
      recentRows: 5,
      gaps: true,
    });
  });

  it('gives the recent requests the rows the buckets leave, however tall the terminal', () => {
    expect(screenLayout(40, 1, false)).toMatchObject({
      pollRows: 21,
      bucketRows: 1,
      recentRows: 31,
    });
    expect(screenLayout(100, 3, false)).toMatchObject({
      pollRows: 61,
      bucketRows: 3,
      recentRows: 89,
    });
    // One row for "no buckets yet" (or why they are not known).
    expect(screenLayout(40, 0, false).recentRows).toBe(31);
  });

  it('keeps the table its room while the help screen shows', () => {
    expect(screenLayout(40, 1, true)).toMatchObject({
      pollRows: 21,
      bucketRows: 21,
      recentRows: 11,
    });
  });

  it('drops the blank lines, then rows, on a short terminal, keeping the header on it', () => {
    // Every line drawn, and one free: what a terminal of `rows` shows whole.
    const lines = (layout: ReturnType<typeof screenLayout>, extra = 0) =>
      2 +
      extra +
      (layout.gaps ? 2 : 0) +
      1 +
      layout.bucketRows +
      (layout.recentRows > 0 ? 1 + layout.recentRows : 0) +
      1 +
      1;
    for (let rows = 7; rows <= 30; rows++) {
      for (const extra of [0, 1]) {
        const layout = screenLayout(rows, 10, false, extra);
        expect(lines(layout, extra), `${rows} rows`).toBeLessThanOrEqual(rows);
        expect(layout.bucketRows).toBeGreaterThanOrEqual(1);
      }
    }
    expect(screenLayout(11, 10, false)).toEqual({
      pollRows: 3,
      bucketRows: 3,
      recentRows: 2,
      gaps: false,
    });
    expect(screenLayout(8, 10, false)).toMatchObject({ bucketRows: 1, recentRows: 1 });
    // At 7 rows the recent requests' title goes with their rows, which makes room for the table,
    // or for the latest code's line.
    expect(screenLayout(7, 10, false)).toMatchObject({ bucketRows: 2, recentRows: 0 });
    expect(screenLayout(7, 10, false, 1)).toMatchObject({ bucketRows: 1, recentRows: 0 });
    expect(screenLayout(12, 10, false)).toMatchObject({ gaps: true, recentRows: 2 });
  });
});
