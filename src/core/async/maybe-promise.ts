/** A value now (the memory store), or later (a shared store such as Redis). */
export type MaybePromise<T> = T | Promise<T>;

/** How a store answers: at once (`sync`) or later (`async`); `Answer` itself is either. */
export type Answer = 'sync' | 'async';

/**
 * A value answered as `M` says: `T`, `Promise<T>`, or (for `Answer`, distributed) either. So an
 * emulator that answers at once is one that answers either way, as transports take it.
 */
export type SyncOrAsync<M extends Answer, T> = M extends 'sync' ? T : Promise<T>;

/** Whether a value is a promise (anything with a `then`). */
export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Goes on with `next` once `value` is there: at once when it already is, so the memory store's
 * path stays synchronous (no promise, no turn of the event loop, on the hot path), after it
 * resolves otherwise.
 */
export function andThen<T, U>(
  value: MaybePromise<T>,
  next: (value: T) => MaybePromise<U>,
): MaybePromise<U> {
  return isPromise(value) ? value.then(next) : next(value);
}

/**
 * The value of a store that must be synchronous (the memory store behind `createEmulator`):
 * a promise here is a programming error.
 */
export function sync<T>(value: MaybePromise<T>): T {
  if (isPromise(value)) throw new Error('a synchronous emulator was given an asynchronous store');
  return value;
}

/**
 * Answers `fallback(error)` when `value` (already there, or later) fails; the synchronous
 * path stays synchronous. A throw of the caller's own code is the caller's to catch.
 */
export function recover<T>(
  value: MaybePromise<T>,
  fallback: (error: unknown) => MaybePromise<T>,
): MaybePromise<T> {
  return isPromise(value) ? value.then(undefined, fallback) : value;
}
