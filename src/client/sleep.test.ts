import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, sleep } from './sleep.js';

afterEach(() => {
  vi.useRealTimers();
});

const DAY = 86_400_000;

describe('sleep', () => {
  it('does not come back early from a wait longer than a timer can hold', async () => {
    // Fake timers behave as Node's do: a delay above 2^31-1 ms fires after 1 ms.
    vi.useFakeTimers();
    let done = false;
    void sleep(30 * DAY).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(1000);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(30 * DAY - MAX_TIMER_MS - 1001);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });

  it('waits a short time with one timer, and no time for zero', async () => {
    vi.useFakeTimers();
    let done = false;
    void sleep(250).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(249);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    await expect(sleep(0)).resolves.toBeUndefined();
  });
});
