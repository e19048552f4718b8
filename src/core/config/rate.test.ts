import { describe, expect, it } from 'vitest';
import { formatRate, parseRate } from './rate.js';
import { missingUnit, parseDuration } from './duration.js';

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

  it.each(['10/s\n', '\t10/s', '10/s\r\n\r\n', '10 /\u2028s', '10/s\u00a0'])(
    'refuses %j, whose line breaks and tabs would be shown as written',
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
  it('reads units, zero without one, and refuses junk', () => {
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration(0)).toBe(0);
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration('soon')).toBeUndefined();
    expect(parseDuration(-5)).toBeUndefined();
  });

  it('refuses a number without a unit, which could be seconds or milliseconds', () => {
    expect(parseDuration('250')).toBeUndefined();
    expect(parseDuration(250)).toBeUndefined();
    expect(parseDuration('2.5')).toBeUndefined();
  });
});

describe('missingUnit', () => {
  it('says what to write instead of a number without a unit, for a duration or a range', () => {
    expect(missingUnit('5')).toBe('give a unit, e.g. 5s or 5ms');
    expect(missingUnit(600)).toBe('give a unit, e.g. 600s or 600ms');
    expect(missingUnit('50-200')).toBe('give a unit, e.g. 50s-200s or 50ms-200ms');
    expect(missingUnit('1s-8')).toBe('give a unit, e.g. 1s-8s or 1s-8ms');
  });

  it('says nothing of a duration with its unit, of zero, or of what is no number', () => {
    for (const input of ['5s', '0', 0, '0-5s', 'soon', '-5', '1-2-3', ''])
      expect(missingUnit(input)).toBeUndefined();
  });
});
