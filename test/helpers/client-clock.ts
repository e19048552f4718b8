import type { ClientClock } from '../../src/client/client.js';
import { createSeededRandom, type RandomSource } from '../../src/core/time/random.js';

/** 22 Nov 2026, 08:00:00 UTC: the time of every virtual clock unless a test says otherwise. */
export const TEST_NOW = Date.UTC(2026, 10, 22, 8, 0, 0);

/**
 * Time and jitter for a client under test: `sleep` records the wait and moves the clock at once
 * (`onSleep` can move another clock with it), so retries never wait for real; the jitter is seeded.
 */
export function createTestClock(
  start = TEST_NOW,
  onSleep: (ms: number) => void = () => {},
): { clock: ClientClock; random: RandomSource; waits: number[] } {
  let now = start;
  const waits: number[] = [];
  return {
    clock: {
      now: () => now,
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
        onSleep(ms);
      },
    },
    random: createSeededRandom(7),
    waits,
  };
}
