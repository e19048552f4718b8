import { isManualClock, type Clock } from '../core/time/clock.js';

/**
 * Waits `ms` on `clock`: on a manual clock until it is moved that far (a test or `--clock manual`
 * decides when a delayed answer comes), otherwise in real time. Resolves early, never rejects,
 * when `signal` aborts (a shutdown, or the client going away).
 */
export function waitFor(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (isManualClock(clock)) return clock.sleep(ms, signal);
  if (!(ms > 0) || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
