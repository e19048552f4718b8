import { createManualClock, isClockTime, type KeptClock } from '../../core/time/clock.js';

/** A manual clock that every instance on the store moves together. */
export interface SharedClock extends KeptClock {
  /** Another instance moved the clock here. */
  heard(ms: number): void;
  /** Reads the store's time again (after a reconnect); a store that lost it gets this one's. */
  resync(): Promise<void>;
}

/**
 * A manual clock kept in Redis: it starts where the store's is (or at `startMs` when there is
 * none yet). A move through `move` (the dev API's) is kept in Redis, then applied here and sent
 * to the others over pub/sub; one through `advance` or `set` (a reset) applies here at once, then
 * in Redis. An advance adds, so two instances advancing at once both count. A store that has lost its
 * time (Redis restarted without persistence, or flushed) takes this instance's, rather than
 * starting from 0 (1970).
 */
export async function createSharedClock(options: {
  /**
   * The time in the store: read, added to, written. Reading a store without a time sets it to
   * `fallback` (and answers that); adding to one starts from `fallback`. Each is atomic.
   */
  store: {
    read(fallback: string): Promise<string | null>;
    add(ms: number, fallback: string): Promise<string>;
    write(ms: string): Promise<unknown>;
    /** The time the shared clock started at, set to `fallback` unless there is one. */
    start(fallback: string): Promise<string | null>;
  };
  startMs: number;
  publish(ms: number): void;
  run<T>(command: () => Promise<T>): Promise<T>;
}): Promise<SharedClock> {
  const { store, run } = options;
  const stored = Number(await run(() => store.read(String(options.startMs))));
  const local = createManualClock(isClockTime(stored) ? stored : options.startMs);
  const shared = Number(await run(() => store.start(String(options.startMs))));
  const startMs = isClockTime(shared) ? shared : options.startMs;
  const settle = (value: string | null) => {
    const ms = Number(value);
    if (!isClockTime(ms)) return;
    if (ms !== local.now()) local.set(ms);
    options.publish(ms);
  };
  return {
    startMs,
    now: () => local.now(),
    sleep: (ms, signal) => local.sleep(ms, signal),
    get sleepers() {
      return local.sleepers;
    },
    advance(ms) {
      const before = String(local.now());
      local.advance(ms);
      run(() => store.add(ms, before)).then(settle, () => {});
    },
    set(ms) {
      local.set(ms);
      run(() => store.write(String(ms))).then(
        () => options.publish(ms),
        () => {},
      );
    },
    async move(change) {
      if ('advanceMs' in change) {
        settle(await run(() => store.add(change.advanceMs, String(local.now()))));
        return;
      }
      await run(() => store.write(String(change.setMs)));
      local.set(change.setMs);
      options.publish(change.setMs);
    },
    heard(ms) {
      if (isClockTime(ms) && ms !== local.now()) local.set(ms);
    },
    async resync() {
      const ms = Number(await run(() => store.read(String(local.now()))));
      if (isClockTime(ms) && ms !== local.now()) local.set(ms);
    },
  };
}
