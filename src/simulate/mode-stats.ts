import type { Operation } from '../core/config/config.js';
import type { Mode } from './scenario.js';

/** Timeline bins of every report. */
export const TIMELINE_BINS = 24;

/** The counts of one time bin of a mode's run. */
export interface TimeBin {
  /** Flows that completed in the bin. */
  completed: number;
  /** Flows that failed in the bin. */
  failed: number;
  /** Shopper requests answered in the bin. */
  requests: number;
  /** Shopper requests answered 429 in the bin. */
  refused: number;
  /** Bot requests answered in the bin. */
  botRequests: number;
  /** Bot requests that got through (not 429) in the bin. */
  botAllowed: number;
}

/** The raw counts of one mode's run. */
export interface ModeStats {
  mode: Mode;
  shoppers: {
    arrived: number;
    completed: number;
    failed: number;
    /** Flows that failed on a 429 after every attempt the retry policy allows (part of `failed`). */
    rateLimited: number;
    unfinished: number;
    failedAt: { exists: number; start: number; verify: number };
  };
  legit: { requests: number; rejected: number; retries: number; waitedMs: number };
  bot: { requests: number; allowed: number; rejected: number };
  /** Milliseconds from arrival to signed in, for each shopper who finished. */
  flowTimes: number[];
  /** The run cut into equal spans of time. */
  timeline: TimeBin[];
}

/** Empty stats for a mode with `bins` timeline bins. */
export function createModeStats(mode: Mode, bins: number = TIMELINE_BINS): ModeStats {
  return {
    mode,
    shoppers: {
      arrived: 0,
      completed: 0,
      failed: 0,
      rateLimited: 0,
      unfinished: 0,
      failedAt: { exists: 0, start: 0, verify: 0 },
    },
    legit: { requests: 0, rejected: 0, retries: 0, waitedMs: 0 },
    bot: { requests: 0, allowed: 0, rejected: 0 },
    flowTimes: [],
    timeline: Array.from({ length: bins }, () => ({
      completed: 0,
      failed: 0,
      requests: 0,
      refused: 0,
      botRequests: 0,
      botAllowed: 0,
    })),
  };
}

/** The bin of `timeline` that holds time `ms` of a run of `durationMs` (the last for the end). */
export function binAt(stats: ModeStats, ms: number, durationMs: number): TimeBin {
  const bins = stats.timeline.length;
  const index = Math.min(bins - 1, Math.max(0, Math.floor((ms * bins) / durationMs)));
  return stats.timeline[index] as TimeBin;
}

/** Counts a shopper's request answered at `ms` of a run of `durationMs` (`refused`: a 429). */
export function countShopperAnswer(
  stats: ModeStats,
  ms: number,
  durationMs: number,
  refused: boolean,
): void {
  const bin = binAt(stats, ms, durationMs);
  stats.legit.requests++;
  bin.requests++;
  if (refused) {
    stats.legit.rejected++;
    bin.refused++;
  }
}

/** Counts a shopper's request tried again after `waitMs`. */
export function countRetry(stats: ModeStats, waitMs: number): void {
  stats.legit.retries++;
  stats.legit.waitedMs += waitMs;
}

/**
 * Counts a bot request answered at `ms`: `allowed` (it got through), `refused` (429), or
 * `other` (another error: neither).
 */
export function countBotAnswer(
  stats: ModeStats,
  ms: number,
  durationMs: number,
  answer: 'allowed' | 'refused' | 'other',
): void {
  const bin = binAt(stats, ms, durationMs);
  stats.bot.requests++;
  bin.botRequests++;
  if (answer === 'refused') stats.bot.rejected++;
  else if (answer === 'allowed') {
    stats.bot.allowed++;
    bin.botAllowed++;
  }
}

/** How a shopper's sign-in ended: completed, or failed at a step (after 429s, or not). */
export type FlowOutcome =
  { completed: true } | { completed: false; step: Operation; rateLimited: boolean };

/** Counts the end, at `ms`, of the sign-in of a shopper who arrived at `arrivalMs`. */
export function countFlowEnd(
  stats: ModeStats,
  ms: number,
  durationMs: number,
  arrivalMs: number,
  outcome: FlowOutcome,
): void {
  const bin = binAt(stats, ms, durationMs);
  if (outcome.completed) {
    stats.shoppers.completed++;
    stats.flowTimes.push(ms - arrivalMs);
    bin.completed++;
  } else {
    stats.shoppers.failed++;
    if (outcome.rateLimited) stats.shoppers.rateLimited++;
    stats.shoppers.failedAt[outcome.step]++;
    bin.failed++;
  }
}

/** Counts the sign-ins still running at the end of the run (arrived, neither completed nor failed). */
export function countUnfinished(stats: ModeStats): void {
  stats.shoppers.unfinished =
    stats.shoppers.arrived - stats.shoppers.completed - stats.shoppers.failed;
}
