import { describe, expect, it } from 'vitest';
import {
  MAX_RETRY_AFTER_SECONDS,
  parseHttpDate,
  readRetryAfter,
  understandRetryAfter,
} from './retry-after.js';

const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);

describe('readRetryAfter', () => {
  it('reads delay-seconds and HTTP dates as milliseconds from now', () => {
    expect(readRetryAfter('3', 0)).toBe(3000);
    expect(readRetryAfter(' 007 ', 0)).toBe(7000);
    expect(readRetryAfter('Thu, 01 Jan 1970 00:00:10 GMT', 4000)).toBe(6000);
    expect(readRetryAfter('Sun, 22 Nov 2026 08:00:12 GMT', NOW)).toBe(12_000);
    expect(readRetryAfter(null, 0)).toBeUndefined();
  });

  it('counts a date that has passed as no wait', () => {
    expect(readRetryAfter('Sun, 22 Nov 2026 07:59:00 GMT', NOW)).toBe(0);
  });

  it('ignores negative, fractional and junk values that Date.parse would take as dates', () => {
    // Date.parse reads each of these as a date in 2001 or earlier: a wait of zero.
    for (const junk of ['-5', '1.5', '+3', 'junk 12', 'soon', '', '3 s', '0x10', 'Infinity']) {
      expect(readRetryAfter(junk, NOW), junk).toBeUndefined();
    }
  });

  it('caps an enormous delay-seconds at 2^31 s instead of overflowing', () => {
    expect(readRetryAfter('9'.repeat(400), 0)).toBe(MAX_RETRY_AFTER_SECONDS * 1000);
    expect(readRetryAfter('99999999999999999999', 0)).toBe(MAX_RETRY_AFTER_SECONDS * 1000);
    expect(Number.isFinite(readRetryAfter('9'.repeat(400), 0))).toBe(true);
  });

  it('caps a date far in the future like an enormous delay-seconds', () => {
    expect(understandRetryAfter('Fri, 31 Dec 9999 23:59:59 GMT', NOW)).toEqual({
      value: 'Fri, 31 Dec 9999 23:59:59 GMT',
      delayMs: MAX_RETRY_AFTER_SECONDS * 1000,
      form: 'date',
    });
  });

  it('says which form the value had and keeps it as sent', () => {
    expect(understandRetryAfter('Sun, 22 Nov 2026 08:00:12 GMT', NOW)).toEqual({
      value: 'Sun, 22 Nov 2026 08:00:12 GMT',
      delayMs: 12_000,
      form: 'date',
    });
    expect(understandRetryAfter('60', NOW)).toEqual({
      value: '60',
      delayMs: 60_000,
      form: 'seconds',
    });
    expect(understandRetryAfter('\x1b[2J', NOW)).toEqual({
      value: '\x1b[2J',
      delayMs: undefined,
      form: 'unreadable',
    });
  });
});

describe('parseHttpDate', () => {
  it('reads the three forms of RFC 9110', () => {
    const expected = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(expected);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(expected);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(expected);
    expect(parseHttpDate('Friday, 06-Nov-26 08:49:37 GMT')).toBe(Date.UTC(2026, 10, 6, 8, 49, 37));
  });

  it('refuses dates that do not exist and other time zones', () => {
    for (const text of [
      'Sun, 31 Feb 2026 08:49:37 GMT',
      'Sun, 06 Nov 1994 24:00:00 GMT',
      'Sun, 06 Nov 1994 08:60:00 GMT',
      'Sun, 06 Nov 1994 08:49:37 UTC',
      'Sun, 06 Nov 1994 08:49:37 +0000',
      'Sun, 6 Nov 1994 08:49:37 GMT',
      '2026-11-22T08:00:12Z',
    ]) {
      expect(parseHttpDate(text), text).toBeUndefined();
    }
  });

  it('takes years below 100 as they are', () => {
    expect(
      new Date(parseHttpDate('Mon, 01 Jan 0001 00:00:00 GMT') as number).getUTCFullYear(),
    ).toBe(1);
  });
});
