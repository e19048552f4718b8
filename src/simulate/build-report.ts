import type { ModeStats } from './mode-stats.js';
import { MODE_DESCRIPTIONS, type Scenario } from './scenario.js';
import { shareOf } from './share.js';
import type { FlowEnd, ModeReport, SimulationReport } from './simulation-report.js';
import { verdictOf } from './verdict.js';

/** What a run was, beyond its scenario and counts: a live run's target and what it could not do. */
export interface RunFacts {
  /** The URL a live run drove. */
  target?: string | undefined;
  /** What the run could not show, in words. */
  warnings?: string[] | undefined;
  /** @default 'verify' */
  flowsEndAt?: FlowEnd | undefined;
  /**
   * Whether the scenario's limits are the target's (false: a live run against another server,
   * whose own limits are not known), so that verdicts can weigh the bot against them.
   * @default true
   */
  limitsApplied?: boolean | undefined;
}

/** The value at quantile `q` of sorted numbers (nearest rank), or null for none. */
export function quantile(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? null;
}

/** Turns the stats of every mode into the report. */
export function buildReport(
  scenario: Scenario,
  results: ModeStats[],
  requests: number,
  engine: 'virtual' | 'live',
  facts: RunFacts = {},
): SimulationReport {
  const { target, warnings = [], flowsEndAt = 'verify', limitsApplied = true } = facts;
  const binS = scenario.durationMs / 1000 / (results[0]?.timeline.length ?? 1);
  return {
    scenario: {
      name: scenario.name,
      description: scenario.description,
      duration_s: scenario.durationMs / 1000,
      seed: scenario.seed,
      shoppers: scenario.shoppers.count,
      bot: {
        rate: scenario.bot.rateText,
        target: scenario.bot.target,
        from_s: scenario.bot.startMs / 1000,
        until_s: scenario.bot.stopMs / 1000,
      },
      limits: scenario.limits,
      retry: { max_attempts: scenario.retry.maxAttempts, max_wait_ms: scenario.retry.maxWaitMs },
      engine,
      ...(target === undefined ? {} : { target }),
      flows_end_at: flowsEndAt,
    },
    modes: results.map((stats) => {
      const sorted = [...stats.flowTimes].sort((a, b) => a - b);
      const ended = stats.shoppers.completed + stats.shoppers.failed;
      const partial: Omit<ModeReport, 'verdict'> = {
        mode: stats.mode,
        description: MODE_DESCRIPTIONS[stats.mode],
        shoppers: {
          arrived: stats.shoppers.arrived,
          completed: stats.shoppers.completed,
          failed: stats.shoppers.failed,
          rate_limited: stats.shoppers.rateLimited,
          unfinished: stats.shoppers.unfinished,
          failed_at: { ...stats.shoppers.failedAt },
          success_rate: shareOf(stats.shoppers.completed, ended),
        },
        legitimate_requests: {
          total: stats.legit.requests,
          rejected_429: stats.legit.rejected,
          retries: stats.legit.retries,
          waited_ms: Math.round(stats.legit.waitedMs),
        },
        flow_time_ms: { p50: round(quantile(sorted, 0.5)), p95: round(quantile(sorted, 0.95)) },
        bot: { ...stats.bot, allowed_rate: shareOf(stats.bot.allowed, stats.bot.requests) },
        timeline: stats.timeline.map((bin, index) => ({
          from_s: Math.round(index * binS * 1000) / 1000,
          to_s: Math.round((index + 1) * binS * 1000) / 1000,
          completed: bin.completed,
          failed: bin.failed,
          success_rate:
            bin.completed + bin.failed === 0
              ? null
              : shareOf(bin.completed, bin.completed + bin.failed),
          shopper_requests: bin.requests,
          shopper_rejected_429: bin.refused,
          bot_requests: bin.botRequests,
          bot_allowed: bin.botAllowed,
        })),
      };
      const botBucket = limitsApplied
        ? {
            ...(stats.mode === 'shared' ? scenario.limits.client : scenario.limits.caller),
            windowMs: scenario.bot.stopMs - scenario.bot.startMs,
          }
        : undefined;
      return { ...partial, verdict: verdictOf(partial, flowsEndAt, botBucket) };
    }),
    simulated_requests: requests,
    warnings: [...scenario.warnings, ...warnings],
  };
}

function round(value: number | null): number | null {
  return value === null ? null : Math.round(value);
}
