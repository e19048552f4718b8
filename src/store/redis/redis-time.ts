/**
 * Where Redis's clock stands, seen from this instance, so that a script can be given a deadline
 * in Redis's time: a script that runs after it changes nothing, since the caller that sent it has
 * given up (a command timed out) and answered 503 "nothing was changed". Redis may run a command
 * long after it was sent (a paused or stopped server runs everything queued when it wakes).
 *
 * Each measure sends `TIME` between two readings of a monotonic clock: Redis's time minus the
 * monotonic one lies between the reply minus the second reading (`low`) and the reply minus the
 * first. The deadline uses `low`, the earliest Redis can be, so that it never comes late: at
 * worst it comes a round trip early. Of the recent measures, the one with the shortest round trip
 * is used; one that disagrees with it (Redis's clock was set) replaces them all.
 */
export interface RedisTime {
  /** Measures again: at connect, every few seconds, after a reconnect. */
  refresh(): Promise<void>;
  /**
   * The Redis time (ms, as text) by which a command sent now, that its caller waits `timeoutMs`
   * for, must have run, with a margin for its answer to come back: `''` before any measure.
   */
  deadline(timeoutMs: number): string;
}

/** How long a measure is kept: past this, a newer one is trusted over a quicker one. */
const KEEP_MS = 30_000;

interface Measure {
  /** Monotonic time of the reply. */
  at: number;
  /** Redis's time minus the monotonic clock: at least this ... */
  low: number;
  /** ... and at most this. */
  high: number;
}

/**
 * Keeps the offset of Redis's clock. `time` sends `TIME` (seconds and microseconds, as Redis
 * answers it); `monotonic` is a clock that is never set (`performance.now()`).
 */
export function createRedisTime(options: {
  time(): Promise<[string, string]>;
  monotonic(): number;
}): RedisTime {
  let measures: Measure[] = [];
  let best: Measure | undefined;
  return {
    async refresh() {
      const sent = options.monotonic();
      const [seconds, micros] = await options.time();
      const at = options.monotonic();
      const redisMs = Number(seconds) * 1000 + Number(micros) / 1000;
      if (!Number.isFinite(redisMs)) return;
      const measure = { at, low: redisMs - at, high: redisMs - sent };
      const agrees = (other: Measure) => other.low <= measure.high && measure.low <= other.high;
      measures = measures.every(agrees)
        ? [...measures.filter((other) => at - other.at < KEEP_MS), measure]
        : [measure];
      best = measures.reduce((a, b) => (b.high - b.low <= a.high - a.low ? b : a));
    },
    deadline(timeoutMs) {
      if (best === undefined) return '';
      const margin = Math.min(100, timeoutMs / 4);
      return String(options.monotonic() + timeoutMs - margin + best.low);
    },
  };
}
