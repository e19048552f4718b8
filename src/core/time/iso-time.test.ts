import { describe, expect, it } from 'vitest';
import { parseIsoTime } from './iso-time.js';

describe('parseIsoTime', () => {
  it('reads a date, a date and time, fractions and zones as Date.parse does', () => {
    for (const text of [
      '2026-01-01',
      '2026-01-01T00:00Z',
      '2026-01-01T00:00:00Z',
      '2026-01-01T00:00:00.123456Z',
      '2026-01-01T00:00:00+05:00',
      '2026-01-01T00:00:00-0130',
      '2028-02-29T23:59:59Z',
      '2000-02-29',
      '0000-01-01T00:00:00Z',
      '9999-12-31T23:59:59.999Z',
    ])
      expect(parseIsoTime(text), text).toBe(Date.parse(text));
  });

  it('refuses text that is not an ISO 8601 time, though Date.parse reads it', () => {
    for (const text of [
      '1',
      '1000',
      'March 7, 2026',
      'Sat Jan 03 2026',
      ' 2026-01-01',
      '+275760-09-13T00:00:00Z',
      '',
    ])
      expect(parseIsoTime(text), text).toBeUndefined();
  });

  it('refuses a day its month does not have, and an hour, minute, second or zone past its end', () => {
    for (const text of [
      '2026-02-29',
      '1900-02-29',
      '2026-02-30T00:00:00Z',
      '2026-04-31',
      '2026-00-10',
      '2026-13-01',
      '2026-01-00',
      '2026-01-01T24:00:00Z',
      '2026-01-01T23:60:00Z',
      '2026-01-01T23:59:60Z',
      '2026-01-01T00:00:00+24:00',
    ])
      expect(parseIsoTime(text), text).toBeUndefined();
  });
});
