import { describe, expect, it } from 'vitest';
import { formatRate, parseRate } from './rate.js';
import { parseDuration } from '../config/duration.js';

describe('parseRate', () => {
  it.each([
    ['10/s', { tokens: 10, windowMs: 1000 }],
    ['100/m', { tokens: 100, windowMs: 60_000 }],
    ['5/10s', { tokens: 5, windowMs: 10_000 }],
    ['1/500ms', { tokens: 1, windowMs: 500 }],
    ['3 / h', { tokens: 3, windowMs: 3_600_000 }],
  ])('reads %s', (text, rate) => {
    expect(parseRate(text)).toEqual(rate);
  });

  it.each(['fast', '10', '0/s', '10/', '/s', '-1/s', '10/0s', '10/parsec'])(
    'refuses %j',
    (text) => {
      expect(parseRate(text)).toBeUndefined();
    },
  );

  it('formats common windows back to their short form', () => {
    expect(formatRate({ tokens: 10, windowMs: 1000 })).toBe('10/s');
    expect(formatRate({ tokens: 5, windowMs: 10_000 })).toBe('5/10000ms');
  });
});

describe('parseDuration', () => {
  it('reads units, bare milliseconds, and refuses junk', () => {
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('250')).toBe(250);
    expect(parseDuration(0)).toBe(0);
    expect(parseDuration('soon')).toBeUndefined();
    expect(parseDuration(-5)).toBeUndefined();
  });
});
