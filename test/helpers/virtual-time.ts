import type { ClientClock } from '../../src/client/client.js';
import { createManualClock, type ManualClock } from '../../src/core/time/clock.js';

/** Concurrent tasks in virtual time: the clock moves only when every task is waiting. */
export interface VirtualTime {
  /** The clock to give the emulator. */
  readonly clock: ManualClock;
  /** The clock to give clients: `sleep` waits in virtual time. */
  readonly clientClock: ClientClock;
  /** Runs the tasks side by side until all are done; returns their results. */
  run<T>(tasks: readonly (() => Promise<T>)[]): Promise<T[]>;
}

interface Timer {
  due: number;
  order: number;
  wake(): void;
}

/**
 * Creates virtual time starting at `startMs`. Tasks run until each is either done or asleep on
 * `clientClock.sleep`; then the earliest sleeper wakes, the clock set to its due time, and runs
 * on alone until it sleeps or ends. So a request is always handled at the exact time its sender
 * woke, and no test waits for real: only the event loop turns (setImmediate) while tasks are busy
 * in msw.
 */
export function createVirtualTime(startMs: number): VirtualTime {
  const clock = createManualClock(startMs);
  const timers: Timer[] = [];
  let order = 0;
  let running = 0;
  const clientClock: ClientClock = {
    now: () => clock.now(),
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        timers.push({ due: clock.now() + Math.max(0, ms), order: order++, wake: resolve });
        running--;
      }),
  };
  async function run<T>(tasks: readonly (() => Promise<T>)[]): Promise<T[]> {
    running += tasks.length;
    let settled = false;
    const all = Promise.all(
      tasks.map((task) =>
        task().finally(() => {
          running--;
        }),
      ),
    );
    all.then(
      () => (settled = true),
      () => (settled = true),
    );
    for (;;) {
      while (running > 0 && !settled) await new Promise((resolve) => setImmediate(resolve));
      if (settled) return all;
      timers.sort((a, b) => a.due - b.due || a.order - b.order);
      const next = timers.shift();
      if (next === undefined) throw new Error('virtual time: every task waits on something else');
      if (next.due > clock.now()) clock.set(next.due);
      running++;
      next.wake();
    }
  }
  return { clock, clientClock, run };
}
