import type { AnyEmulator } from '../core/emulator.js';
import { waitFor } from '../runtime/wait.js';

/** What releases the delayed answers of one emulator when it is reset. */
interface Release {
  /**
   * How to release each answer waiting now: a call each, rather than a listener each on one
   * signal, which Node takes for a leak past ten (this module also runs in browsers).
   */
  waiters: Set<() => void>;
  stop: (() => void) | undefined;
}

const releases = new WeakMap<AnyEmulator, Release>();

/**
 * Waits out the delay of an answer (a configured latency, a fault's `latencyMs`) on the
 * emulator's clock: on a manual clock until it is moved that far. Resolves early, never rejects,
 * when `signal` aborts (the client went away, a shutdown) or when the whole emulator is reset:
 * a reset returns the emulator to its start, and an answer held for a test that is over must not
 * hang the next one. Listens to the emulator only while an answer waits, so that an emulator
 * with no delayed answer builds no events for it.
 */
export function delayAnswer(
  emulator: AnyEmulator,
  ms: number,
  signal?: AbortSignal,
): Promise<void> {
  if (!(ms > 0) || signal?.aborted === true) return Promise.resolve();
  let release = releases.get(emulator);
  if (release === undefined) {
    release = { waiters: new Set(), stop: undefined };
    releases.set(emulator, release);
  }
  const shared = release;
  const own = new AbortController();
  const abort = () => own.abort();
  shared.waiters.add(abort);
  if (shared.waiters.size === 1)
    shared.stop = emulator.subscribe((event) => {
      if (event.type !== 'reset' || !event.emulator) return;
      for (const waiter of [...shared.waiters]) waiter();
    });
  signal?.addEventListener('abort', abort, { once: true });
  return waitFor(emulator.clock, ms, own.signal).finally(() => {
    signal?.removeEventListener('abort', abort);
    shared.waiters.delete(abort);
    if (shared.waiters.size === 0) {
      shared.stop?.();
      shared.stop = undefined;
    }
  });
}
