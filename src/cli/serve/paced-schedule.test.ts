import { afterEach, describe, expect, it, vi } from 'vitest';
import { pacedSchedule } from './paced-schedule.js';

describe('pacedSchedule', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at the next turn after a quiet moment, and no sooner than 20 ms after the last', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate', 'performance'] });
    const schedule = pacedSchedule(20);
    const ran: number[] = [];
    schedule(() => ran.push(performance.now()));
    vi.advanceTimersByTime(0);
    expect(ran).toEqual([0]);
    vi.advanceTimersByTime(5);
    schedule(() => ran.push(performance.now()));
    vi.advanceTimersByTime(14);
    expect(ran).toEqual([0]);
    vi.advanceTimersByTime(1);
    expect(ran).toEqual([0, 20]);
    // Quiet for longer than 20 ms: at once again.
    vi.advanceTimersByTime(100);
    schedule(() => ran.push(performance.now()));
    vi.advanceTimersByTime(0);
    expect(ran).toEqual([0, 20, 120]);
  });
});
