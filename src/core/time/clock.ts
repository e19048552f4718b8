/** A source of time in milliseconds. The core never reads the wall clock itself. */
export interface Clock {
  now(): number;
}

/**
 * The times a clock may be set to: years 0000 to 9999. A code issued at the last of them still
 * expires (a year at most later) at a time a Date can show, and every date printed has four digits.
 */
export const CLOCK_RANGE = { min: -62_167_219_200_000, max: 253_402_300_799_999 } as const;

/** The latest time a Date holds (and, before the epoch, the earliest), in ms. */
export const LATEST_DATE_MS = 8.64e15;

/**
 * Whether a time read from outside (a store something else may have written to) is one a Date
 * can show: a bucket's last update, a code's issue and expiry.
 */
export function isDateTime(ms: number): boolean {
  return ms >= -LATEST_DATE_MS && ms <= LATEST_DATE_MS;
}

/** Whether a time is within {@link CLOCK_RANGE}. */
export function isClockTime(ms: number): boolean {
  return Number.isFinite(ms) && ms >= CLOCK_RANGE.min && ms <= CLOCK_RANGE.max;
}

/** A clock that moves only when told to: for tests, virtual-time simulation and `--clock manual`. */
export interface ManualClock extends Clock {
  /** Moves the clock forward by `ms` milliseconds, waking the sleepers that are due. */
  advance(ms: number): void;
  /** Sets the clock to an absolute time in milliseconds (forward wakes the sleepers that are due). */
  set(ms: number): void;
  /**
   * Resolves once the clock has been moved `ms` past now (at once for 0), or when `signal`
   * aborts: how a delayed answer waits on a manual clock.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Sleepers not yet woken. */
  readonly sleepers: number;
}

interface Sleeper {
  due: number;
  wake(): void;
}

/** The range of {@link CLOCK_RANGE} as text, for refusals. */
export const CLOCK_RANGE_TEXT = `from ${new Date(CLOCK_RANGE.min).toISOString()} to ${new Date(CLOCK_RANGE.max).toISOString()}`;

/**
 * Creates a manual clock that starts at `startMs` (default 0). Its time stays within
 * {@link CLOCK_RANGE}: a start, set or advance outside it throws, and the clock keeps its time.
 */
export function createManualClock(startMs = 0): ManualClock {
  if (typeof startMs !== 'number')
    throw new TypeError(
      `createManualClock: startMs must be a number of ms since the epoch; got ${JSON.stringify(startMs) ?? String(startMs)}`,
    );
  if (!isClockTime(startMs))
    throw new RangeError(
      `createManualClock: startMs must be a time ${CLOCK_RANGE_TEXT}; got ${startMs}`,
    );
  let current = startMs;
  let sleepers: Sleeper[] = [];
  const wakeDue = () => {
    if (sleepers.length === 0) return;
    const due = sleepers.filter((sleeper) => sleeper.due <= current);
    if (due.length === 0) return;
    sleepers = sleepers.filter((sleeper) => sleeper.due > current);
    due.sort((a, b) => a.due - b.due).forEach((sleeper) => sleeper.wake());
  };
  return {
    now: () => current,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) {
        throw new RangeError(
          `ManualClock.advance expects a finite, non-negative number of ms; got ${ms}`,
        );
      }
      if (!isClockTime(current + ms)) {
        throw new RangeError(
          `ManualClock.advance(${ms}) would move the clock past ${new Date(CLOCK_RANGE.max).toISOString()}`,
        );
      }
      current += ms;
      wakeDue();
    },
    set(ms) {
      if (typeof ms !== 'number' || !isClockTime(ms)) {
        throw new RangeError(`ManualClock.set expects a time ${CLOCK_RANGE_TEXT} in ms; got ${ms}`);
      }
      current = ms;
      wakeDue();
    },
    sleep(ms, signal) {
      if (!(ms > 0) || signal?.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const sleeper: Sleeper = {
          due: current + ms,
          wake: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          sleepers = sleepers.filter((entry) => entry !== sleeper);
          resolve();
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        sleepers.push(sleeper);
      });
    },
    get sleepers() {
      return sleepers.length;
    },
  };
}

/** Whether a clock is a {@link ManualClock} (it can be moved, and sleeps follow it). */
/**
 * A manual clock kept in a store shared by instances: a move through {@link KeptClock.move} is
 * kept there first, so that it reaches every instance or none.
 */
export interface KeptClock extends ManualClock {
  /**
   * Where the clock started for every instance sharing it (set by the first): a reset takes each
   * instance there, whenever it joined.
   */
  readonly startMs: number;
  /** Moves the clock once the store has kept the move; rejects, moving nothing, when it cannot. */
  move(change: { advanceMs: number } | { setMs: number }): Promise<void>;
}

/** Whether a clock is a {@link KeptClock}. */
export function isKeptClock(clock: Clock): clock is KeptClock {
  return isManualClock(clock) && typeof (clock as Partial<KeptClock>).move === 'function';
}

export function isManualClock(clock: Clock): clock is ManualClock {
  const candidate = clock as Partial<ManualClock>;
  return typeof candidate.advance === 'function' && typeof candidate.sleep === 'function';
}
