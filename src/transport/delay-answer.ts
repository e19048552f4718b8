import { setMaxListeners } from 'node:events';
import type { AnyEmulator } from '../core/emulator.js';
import { waitFor } from '../runtime/wait.js';

/** What releases the delayed answers of one emulator when it is reset. */
interface Release {
  /** Aborted, then replaced, at each reset of the whole emulator. */
  controller: AbortController;
  /** Answers waiting now. */
  waiting: number;
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
    release = { controller: resetController(), waiting: 0, stop: undefined };
    releases.set(emulator, release);
  }
  const shared = release;
  if (shared.waiting++ === 0)
    shared.stop = emulator.subscribe((event) => {
      if (event.type !== 'reset' || !event.emulator) return;
      shared.controller.abort();
      shared.controller = resetController();
    });
  const own = new AbortController();
  const abort = () => own.abort();
  const resetSignal = shared.controller.signal;
  resetSignal.addEventListener('abort', abort, { once: true });
  signal?.addEventListener('abort', abort, { once: true });
  return waitFor(emulator.clock, ms, own.signal).finally(() => {
    resetSignal.removeEventListener('abort', abort);
    signal?.removeEventListener('abort', abort);
    if (--shared.waiting === 0) {
      shared.stop?.();
      shared.stop = undefined;
    }
  });
}

/**
 * The controller whose signal every answer waiting on one emulator listens to: as many listeners
 * as answers wait (each removed once its answer is out), so Node's warning past ten, meant to
 * catch a leak, does not apply.
 */
function resetController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
