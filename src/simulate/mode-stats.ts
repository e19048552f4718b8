import type { Mode } from './scenario.js';

/** The raw counts of one mode's run. */
export interface ModeStats {
  mode: Mode;
  shoppers: {
    arrived: number;
    completed: number;
    failed: number;
    unfinished: number;
    failedAt: { exists: number; start: number; verify: number };
  };
  legit: { requests: number; rejected: number; retries: number; waitedMs: number };
  bot: { requests: number; allowed: number; rejected: number };
  /** Milliseconds from arrival to signed in, for each shopper who finished. */
  flowTimes: number[];
  /** Per time bin: flows that completed and failed in it. */
  timeline: Array<{ completed: number; failed: number }>;
}

/** Empty stats for a mode with `bins` timeline bins. */
export function createModeStats(mode: Mode, bins: number): ModeStats {
  return {
    mode,
    shoppers: {
      arrived: 0,
      completed: 0,
      failed: 0,
      unfinished: 0,
      failedAt: { exists: 0, start: 0, verify: 0 },
    },
    legit: { requests: 0, rejected: 0, retries: 0, waitedMs: 0 },
    bot: { requests: 0, allowed: 0, rejected: 0 },
    flowTimes: [],
    timeline: Array.from({ length: bins }, () => ({ completed: 0, failed: 0 })),
  };
}
