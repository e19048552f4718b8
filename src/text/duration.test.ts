import { describe, expect, it } from 'vitest';
import { formatDelay, formatDuration } from './duration.js';

describe('durations for a person', () => {
  it('names the largest units that matter, up to years', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(1500)).toBe('1.5 s');
    expect(formatDuration(3_720_000)).toBe('1 h 2 min');
    expect(formatDuration(97_200_000)).toBe('1 d 3 h');
    expect(formatDuration(400 * 86_400_000)).toBe('1 year');
    expect(formatDuration(1e15)).toBe('31,688 years');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('—');
  });

  it('keeps a short delay to the millisecond and says a long one in units', () => {
    expect(formatDelay(1500)).toBe('1500 ms');
    expect(formatDelay(9_999.4)).toBe('9999 ms');
    expect(formatDelay(125_000)).toBe('2 min 5 s');
    expect(formatDelay(999_999_999_999_979)).toBe('31,688 years');
    expect(formatDelay(-1500)).toBe('-1500 ms');
    expect(formatDelay(-999_999_999_999_991)).toBe('-31,688 years');
  });
});
