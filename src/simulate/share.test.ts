import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatShare, shareOf } from './share.js';

describe('formatShare', () => {
  it('rounds to one decimal of the fraction it is given', () => {
    expect(formatShare(292, 298)).toBe('98.0%');
    expect(formatShare(52, 62)).toBe('83.9%');
    expect(formatShare(1, 3)).toBe('33.3%');
  });

  it('says 100.0% only for all and 0.0% only for none', () => {
    expect(formatShare(5, 5)).toBe('100.0%');
    expect(formatShare(0, 5)).toBe('0.0%');
    expect(formatShare(29_999, 30_000)).toBe('>99.9%');
    expect(formatShare(1, 30_000)).toBe('<0.1%');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.nat(), (whole, seed) => {
        const part = seed % (whole + 1);
        const text = formatShare(part, whole);
        expect(text === '100.0%').toBe(part === whole);
        expect(text === '0.0%').toBe(part === 0);
      }),
    );
  });

  it('gives no share of nothing', () => {
    expect(formatShare(0, 0)).toBeUndefined();
  });
});

describe('shareOf', () => {
  it('is 1 only for all and 0 only for none', () => {
    expect(shareOf(29_999, 30_000)).toBe(0.9999);
    expect(shareOf(1, 30_000)).toBe(0.0001);
    expect(shareOf(292, 298)).toBe(0.9799);
    expect(shareOf(3, 3)).toBe(1);
    expect(shareOf(0, 3)).toBe(0);
    expect(shareOf(0, 0)).toBe(0);
  });
});
