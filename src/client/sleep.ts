/**
 * The longest delay one timer can hold: `setTimeout` and `AbortSignal.timeout` take at most
 * 2^31-1 ms (about 24.8 days). Node turns a longer `setTimeout` into 1 ms (with a
 * TimeoutOverflowWarning), and `AbortSignal.timeout` throws a RangeError past 2^32-1.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Waits `ms` of real time, however long: a wait longer than one timer can hold is made of
 * several, so it never comes back early.
 */
export async function sleep(ms: number): Promise<void> {
  let left = ms;
  while (left > 0) {
    const step = Math.min(left, MAX_TIMER_MS);
    await new Promise<void>((resolve) => setTimeout(resolve, step));
    left -= step;
  }
}

/**
 * `ms` when a timer can wait that long (a whole number from 1 to {@link MAX_TIMER_MS});
 * otherwise a RangeError naming `what`.
 */
export function timerMs(ms: number, what: string): number {
  if (!(Number.isInteger(ms) && ms >= 1 && ms <= MAX_TIMER_MS))
    throw new RangeError(
      `${what} must be a whole number from 1 to ${MAX_TIMER_MS} ms (about 24.8 days, the longest a timer can hold); got ${ms}`,
    );
  return ms;
}
