import { describe, expect, it } from 'vitest';
import { CLOCK_RANGE, createManualClock } from './clock.js';

describe('createManualClock', () => {
  it.each([
    [
      'a date text',
      '2026-01-01',
      TypeError,
      /startMs must be a number of ms since the epoch; got "2026-01-01"/,
    ],
    [
      'NaN',
      NaN,
      RangeError,
      /startMs must be a time from 0000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z; got NaN/,
    ],
    ['a time past year 9999', 1e20, RangeError, /got 100000000000000000000/],
  ])(
    'refuses a start that is %s, naming it, where now() answered it',
    (_what, start, kind, why) => {
      const make = () => createManualClock(start as number);
      expect(make).toThrow(kind);
      expect(make).toThrow(why);
    },
  );

  it('refuses a set or an advance past year 9999 and keeps its time, where a code issued then could not be listed', () => {
    const clock = createManualClock(CLOCK_RANGE.max - 1_000);
    expect(() => clock.set(1e20)).toThrow(RangeError);
    expect(() => clock.set(CLOCK_RANGE.min - 1)).toThrow(/ManualClock.set/);
    expect(() => clock.advance(1_001)).toThrow(
      /would move the clock past 9999-12-31T23:59:59.999Z/,
    );
    expect(clock.now()).toBe(CLOCK_RANGE.max - 1_000);
    clock.advance(1_000);
    expect(clock.now()).toBe(CLOCK_RANGE.max);
  });
});
