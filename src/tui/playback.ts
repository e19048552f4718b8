import type { Clock } from '../core/time/clock.js';
import { waitFor } from '../runtime/wait.js';

/** Options of {@link createPlayback}. */
export interface PlaybackOptions {
  /** Simulated seconds per second of wall time. */
  speed: number;
  /** The wall clock the playback keeps to (a manual clock in tests). */
  clock: Clock;
}

/** How a playback went, for the line that follows the report. */
export interface PlaybackSummary {
  /** Simulated milliseconds played. */
  simulatedMs: number;
  /** Wall milliseconds they took, time paused left out. */
  wallMs: number;
  /** Wall milliseconds spent paused. */
  pausedMs: number;
  /** The speed asked for. */
  speed: number;
  /** Whether the machine fell behind the speed asked for (by more than 5% and 100 ms). */
  behind: boolean;
}

/** Plays simulated time at a speed, on the wall clock, with a pause. */
export interface Playback {
  /**
   * Resolves once wall time has caught up with `simulatedMs` (of the whole run, from 0) at the
   * playback's speed, and the playback is not paused; always after at least one turn of the
   * event loop, so that the screen can draw and keys come in even when the machine is behind.
   */
  at(simulatedMs: number): Promise<void>;
  /** Holds every later {@link at} until {@link resume}: simulated time stops. */
  pause(): void;
  /** Lets the playback go on where it stopped: the time paused is not made up for. */
  resume(): void;
  readonly paused: boolean;
  summary(): PlaybackSummary;
}

/** A timer shorter than this is not worth setting: the next step catches up. */
const MIN_WAIT_MS = 1;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A playback of simulated time at `speed`: the due time of each step is computed from the start
 * (wall time played = simulated time / speed), so timers that fire late and the simulation's own
 * work are made up for instead of adding up; when the machine cannot keep up it does not
 * pretend to, and {@link PlaybackSummary.behind} says so.
 */
export function createPlayback({ speed, clock }: PlaybackOptions): Playback {
  let startedAt: number | undefined;
  let pausedAt: number | undefined;
  let pausedMs = 0;
  let simulatedMs = 0;
  let waiting: Array<() => void> = [];
  const paused = () => (pausedAt === undefined ? 0 : clock.now() - pausedAt);
  const played = () =>
    startedAt === undefined ? 0 : clock.now() - startedAt - pausedMs - paused();
  return {
    async at(simulated) {
      startedAt ??= clock.now();
      let turned = false;
      for (;;) {
        if (pausedAt !== undefined) {
          await new Promise<void>((resolve) => waiting.push(resolve));
        } else {
          const ahead = simulated / speed - played();
          if (ahead >= MIN_WAIT_MS) await waitFor(clock, ahead);
          else if (!turned) await nextTurn();
          else break;
        }
        turned = true;
      }
      simulatedMs = Math.max(simulatedMs, simulated);
    },
    pause() {
      pausedAt ??= clock.now();
    },
    resume() {
      if (pausedAt !== undefined) pausedMs += clock.now() - pausedAt;
      pausedAt = undefined;
      const release = waiting;
      waiting = [];
      for (const resolve of release) resolve();
    },
    get paused() {
      return pausedAt !== undefined;
    },
    summary() {
      const wallMs = played();
      const due = simulatedMs / speed;
      return {
        simulatedMs,
        wallMs,
        pausedMs: pausedMs + paused(),
        speed,
        behind: wallMs > due * 1.05 + 100,
      };
    },
  };
}
