import { describe, expect, it } from 'vitest';
import { parseRate, refillPerMs } from '../config/rate.js';
import { millisecondsUp, secondsUp, writeRateLimitHeaders } from './rate-limit-headers.js';
import { takeTokens } from './token-bucket.js';

function limitsOf(burst: number, rateText: string) {
  const rate = parseRate(rateText)!;
  return { burst, rate, rateText, refillPerMs: refillPerMs(rate) };
}

function policyOf(burst: number, rateText: string): string | undefined {
  const limits = limitsOf(burst, rateText);
  const headers: Record<string, string> = {};
  const decision = takeTokens(undefined, 0, limits, 1);
  writeRateLimitHeaders(headers, 'draft-10', 'caller', limits, decision, 1);
  return headers['ratelimit-policy'];
}

describe('writeRateLimitHeaders', () => {
  it.each([
    [5, '1/11s', 55],
    [1, '1/57s', 57],
    [1_000_000, '1/57s', 57_000_000],
    [5, '1/s', 5],
    [1, '1/h', 3600],
    [3, '2/s', 2],
    [1, '3/10s', 4],
    [1, '1000000000/s', 1],
    [1000, '1000000000/ms', 1],
  ])(
    'states w as the whole seconds %i tokens at %s take to fill from empty (%i)',
    (burst, rate, w) => {
      expect(policyOf(burst, rate)).toBe(`"caller";q=${burst};w=${w}`);
    },
  );
});

describe('millisecondsUp', () => {
  it('rounds up, but not past the rounding error of a division by a rate', () => {
    expect(millisecondsUp(1 / (1 / 3_600_000))).toBe(3_600_000);
    expect(millisecondsUp(1_000_000 / (1 / 57_000))).toBe(57_000_000_000);
    expect(millisecondsUp(142.857)).toBe(143);
    expect(millisecondsUp(1000.001)).toBe(1001);
    expect(millisecondsUp(0)).toBe(0);
    expect(secondsUp(1000.5)).toBe(2);
  });
});
