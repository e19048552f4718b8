/** A source of time in milliseconds. The core never reads the wall clock itself. */
export interface Clock {
  now(): number;
}

/** A clock that moves only when told to: for tests and virtual-time simulation. */
export interface ManualClock extends Clock {
  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void;
  /** Sets the clock to an absolute time in milliseconds. */
  set(ms: number): void;
}

/** Creates a manual clock that starts at `startMs` (default 0). */
export function createManualClock(startMs = 0): ManualClock {
  let current = startMs;
  return {
    now: () => current,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) {
        throw new RangeError(
          `ManualClock.advance expects a finite, non-negative number of ms; got ${ms}`,
        );
      }
      current += ms;
    },
    set(ms) {
      if (!Number.isFinite(ms)) {
        throw new RangeError(`ManualClock.set expects a finite number of ms; got ${ms}`);
      }
      current = ms;
    },
  };
}
