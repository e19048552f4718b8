import type { ModeStats } from './mode-stats.js';
import type { Mode, Scenario } from './scenario.js';

/** The outcome of one mode, as reported. */
export interface ModeReport {
  mode: Mode;
  description: string;
  shoppers: {
    arrived: number;
    completed: number;
    failed: number;
    /** Of the failed, those that failed on 429 after every attempt the retry policy allows. */
    rate_limited: number;
    unfinished: number;
    failed_at: { exists: number; start: number; verify: number };
    /** Completed among the sign-ins that ended (0 when none ended). */
    success_rate: number;
  };
  legitimate_requests: { total: number; rejected_429: number; retries: number; waited_ms: number };
  flow_time_ms: { p50: number | null; p95: number | null };
  bot: ModeStats['bot'] & { allowed_rate: number };
  /** Share of flows that completed among those that ended, per time bin (null: none ended). */
  timeline: Array<{
    from_s: number;
    to_s: number;
    completed: number;
    failed: number;
    success_rate: number | null;
    shopper_requests: number;
    /** Shopper requests answered 429 in the bin. */
    shopper_rejected_429: number;
    bot_requests: number;
    /** Bot requests that got through in the bin. */
    bot_allowed: number;
  }>;
  verdict: string;
}

/**
 * The report of a simulation: deterministic for a seed (no wall-clock figures in it). It is what
 * `--json` prints, so every key is in snake_case, like the service's wire format.
 */
export interface SimulationReport {
  scenario: {
    name: string;
    description: string;
    duration_s: number;
    seed: number;
    shoppers: number;
    bot: { rate: string; target: string; from_s: number; until_s: number };
    limits: Scenario['limits'];
    retry: { max_attempts: number; max_wait_ms: number };
    engine: 'virtual' | 'live';
    target?: string;
    /**
     * Where a sign-in ends: `verify`, or `start` in a live run against a server whose codes
     * cannot be read (a sign-in then counts as completed once start answered).
     */
    flows_end_at: FlowEnd;
  };
  modes: ModeReport[];
  simulated_requests: number;
  /** What the run could not show that the scenario asks for, in words (empty when nothing). */
  warnings: string[];
}

/** The step a sign-in ends at: verify, or start when the code cannot be read. */
export type FlowEnd = 'verify' | 'start';
