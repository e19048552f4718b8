import { createManualClock, type ManualClock } from '../../core/time/clock.js';

/** A manual clock that every instance on the store moves together. */
export interface SharedClock extends ManualClock {
  /** Another instance moved the clock here. */
  heard(ms: number): void;
}

/**
 * A manual clock kept in Redis: it starts where the store's is (or at `startMs` when there is
 * none yet). A move applies here at once, then in Redis (an advance adds, so two instances
 * advancing at once both count), and reaches the others over pub/sub.
 */
export async function createSharedClock(options: {
  /** The time in the store: set unless there is one, read, added to, written. */
  store: {
    setIfAbsent(ms: string): Promise<unknown>;
    read(): Promise<string | null>;
    add(ms: number): Promise<string>;
    write(ms: string): Promise<unknown>;
  };
  startMs: number;
  publish(ms: number): void;
  run<T>(command: () => Promise<T>): Promise<T>;
}): Promise<SharedClock> {
  const { store, run } = options;
  await run(() => store.setIfAbsent(String(options.startMs)));
  const stored = Number(await run(() => store.read()));
  const local = createManualClock(Number.isFinite(stored) ? stored : options.startMs);
  const settle = (value: string | null) => {
    const ms = Number(value);
    if (!Number.isFinite(ms)) return;
    if (ms !== local.now()) local.set(ms);
    options.publish(ms);
  };
  return {
    now: () => local.now(),
    sleep: (ms, signal) => local.sleep(ms, signal),
    get sleepers() {
      return local.sleepers;
    },
    advance(ms) {
      local.advance(ms);
      run(() => store.add(ms)).then(settle, () => {});
    },
    set(ms) {
      local.set(ms);
      run(() => store.write(String(ms))).then(
        () => options.publish(ms),
        () => {},
      );
    },
    heard(ms) {
      if (Number.isFinite(ms) && ms !== local.now()) local.set(ms);
    },
  };
}
