import { STORE_CALLS } from './admin/store-calls.js';
import type { MaybePromise } from './async/maybe-promise.js';
import type { AnyEmulator, SharedEmulator } from './emulator.js';

/** A function whose answer is a promise, whether `call` answers now or later. */
const later =
  <A extends unknown[], T>(call: (...args: A) => MaybePromise<T>) =>
  async (...args: A): Promise<T> =>
    call(...args);

/**
 * The emulator as one over a shared store is typed: every call that reaches the store (those of
 * the route table's store calls, and `handle` and `execute`) answers a promise.
 */
export function toSharedEmulator(emulator: AnyEmulator): SharedEmulator {
  const shared: Record<string, unknown> = {
    ...emulator,
    handle: later(emulator.handle),
    execute: later(emulator.execute),
  };
  for (const name of STORE_CALLS)
    shared[name] = later(emulator[name] as (...args: unknown[]) => MaybePromise<unknown>);
  return Object.defineProperties(shared, {
    config: { get: () => emulator.config, enumerable: true },
    requestsDropped: { get: () => emulator.requestsDropped, enumerable: true },
    storeState: { get: () => emulator.storeState, enumerable: true },
  }) as unknown as SharedEmulator;
}
