import * as z from 'zod/mini';
import { ConfigError, configIssue, type ConfigIssue } from '../core/config/config-error.js';
import { describeIssues, limitsSchema, parseLatencyText } from '../core/config/config-schema.js';
import { missingUnit, parseDuration } from '../core/config/duration.js';
import { checked, got, list, whole } from '../core/config/schema-kit.js';
import { parseRate, refillPerMs } from '../core/config/rate.js';
import { MAX_TIMER_MS } from '../client/sleep.js';
import { botWindowWarnings } from './scenario-warnings.js';
import { MAX_SHOPPERS } from './simulation-config.js';

/** How requests choose their caller_id in a mode. */
export const MODES = ['shared', 'per-caller', 'static', 'rotating'] as const;
export type Mode = (typeof MODES)[number];

/** What each mode means, for reports. */
export const MODE_DESCRIPTIONS: Record<Mode, string> = {
  shared: 'nobody sends caller_id: everything lands in the client bucket',
  'per-caller': 'each shopper sends its own caller_id (an IP); the bot has its own',
  static: 'every request sends the same caller_id',
  rotating: 'shoppers send their own caller_id; the bot sends a new one on every request',
};

/**
 * Durations of a scenario are at most what a timer can hold (2^31-1 ms, about 24.8 days): a live
 * run waits them out in real time. The run itself is shorter still (24 h, below).
 */
const TIMER_BOUND = `expected at most ${MAX_TIMER_MS} ms (about 24.8 days, the longest a timer can hold)`;

const durationText = checked(z.union([z.number(), z.string()]), (value) => {
  const unit = missingUnit(value);
  if (unit !== undefined) return `${unit}; ${got(value)}`;
  const ms = parseDuration(value);
  if (ms === undefined) return `expected a duration such as "30s", "10m" or "1h"; ${got(value)}`;
  return ms > MAX_TIMER_MS ? `${TIMER_BOUND}; ${got(value)}` : undefined;
});
const rateText = checked(z.string(), (value) =>
  parseRate(value) === undefined
    ? `expected a rate such as "2/s", "100/m" or "5/10s"; ${got(value)}`
    : undefined,
);
const rangeText = checked(z.string(), (value) => {
  const unit = missingUnit(value);
  if (unit !== undefined) return `${unit}; ${got(value)}`;
  const range = parseLatencyText(value);
  if (range === undefined)
    return `expected a duration or a range such as "3s" or "2s-10s"; ${got(value)}`;
  return range.maxMs > MAX_TIMER_MS ? `${TIMER_BOUND}; ${got(value)}` : undefined;
});

/**
 * A bucket of the scenario, every field optional: the missing ones are the defaults'
 * ({@link SCENARIO_DEFAULTS}), so `--caller-rate 2/s` alone keeps the caller burst.
 */
const bucketLimits = z.optional(z.partial(limitsSchema.shape.client));

/** A scenario file (JSON), as users write it. Every field is optional, and has a default. */
export const scenarioSchema = z.strictObject({
  $schema: z.optional(z.string()),
  name: z.optional(
    checked(z.string(), (value) =>
      value.length >= 1 && value.length <= 100 ? undefined : 'expected 1 to 100 characters',
    ),
  ),
  description: z.optional(z.string()),
  duration: z.optional(durationText),
  seed: z.optional(whole(0, 2 ** 32 - 1)),
  shoppers: z.optional(
    z.strictObject({
      count: z.optional(whole(1, MAX_SHOPPERS)),
      arrivalRate: z.optional(rateText),
      thinkTime: z.optional(rangeText),
    }),
  ),
  bot: z.optional(
    z.strictObject({
      rate: z.optional(rateText),
      target: z.optional(z.enum(['exists', 'start'])),
      start: z.optional(durationText),
      stop: z.optional(durationText),
    }),
  ),
  // Only the two buckets: the other limits of a config (cost, callerScope, ...) are not part of
  // a simulation, and are refused rather than ignored.
  limits: z.optional(z.strictObject({ client: bucketLimits, caller: bucketLimits })),
  // Each mode once: a mode given twice would run the same traffic again, a column the same
  // as another (and, live, the whole duration more).
  modes: z.optional(
    checked(list(z.enum(MODES), 1, MODES.length, 'modes'), (modes) => {
      const twice = modes.find((mode, index) => modes.indexOf(mode) !== index);
      return twice === undefined ? undefined : `expected each mode once; got "${twice}" twice`;
    }),
  ),
  retry: z.optional(
    z.strictObject({
      maxAttempts: z.optional(whole(1, 10)),
      maxWait: z.optional(durationText),
    }),
  ),
});

/** A scenario with defaults applied and every value parsed. */
export interface Scenario {
  name: string;
  description: string;
  durationMs: number;
  seed: number;
  shoppers: { count: number; arrivalPerMs: number; thinkMinMs: number; thinkMaxMs: number };
  bot: {
    perMs: number;
    rateText: string;
    target: 'exists' | 'start';
    startMs: number;
    stopMs: number;
  };
  limits: { client: { burst: number; rate: string }; caller: { burst: number; rate: string } };
  modes: Mode[];
  retry: { maxAttempts: number; maxWaitMs: number };
  /** What the run will not show that the scenario asks for (a bot cut off by the end), in words. */
  warnings: string[];
}

/** Defaults of a scenario, in one place (docs/simulate.md lists them). */
export const SCENARIO_DEFAULTS = {
  name: 'custom',
  duration: '10m',
  seed: 1,
  shoppers: { count: 300, arrivalRate: '1/s', thinkTime: '2s-8s' },
  bot: { rate: '20/s', target: 'exists', start: '0s' },
  limits: { client: { burst: 20, rate: '10/s' }, caller: { burst: 5, rate: '1/s' } },
  modes: [...MODES],
  retry: { maxAttempts: 3, maxWait: '30s' },
} as const;

/**
 * Validates and resolves a scenario (parsed JSON merged with flags). Throws a ConfigError whose
 * issues name each bad field.
 */
export function resolveScenario(input: unknown): Scenario {
  const parsed = scenarioSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, scenarioSchema));
  const file = parsed.data;
  const shoppers = { ...SCENARIO_DEFAULTS.shoppers, ...file.shoppers };
  const bot = { ...SCENARIO_DEFAULTS.bot, ...file.bot };
  const retry = { ...SCENARIO_DEFAULTS.retry, ...file.retry };
  const durationMs = parseDuration(file.duration ?? SCENARIO_DEFAULTS.duration) as number;
  const think = parseLatencyText(shoppers.thinkTime) as { minMs: number; maxMs: number };
  const botStart = parseDuration(bot.start) as number;
  const botStopAsWritten = bot.stop === undefined ? undefined : (parseDuration(bot.stop) as number);
  const botStop = botStopAsWritten ?? durationMs;
  const issues: ConfigIssue[] = [];
  if (durationMs <= 0) issues.push(configIssue(['duration'], 'expected more than zero'));
  if (durationMs > 24 * 3_600_000)
    issues.push(configIssue(['duration'], 'expected at most 24h of simulated time'));
  // Checked only when written: a bot that starts after the end is a warning, not an error.
  if (botStopAsWritten !== undefined && botStopAsWritten <= botStart)
    issues.push(configIssue(['bot', 'stop'], `expected a time after bot.start (${bot.start})`));
  const limits = {
    client: { ...SCENARIO_DEFAULTS.limits.client, ...file.limits?.client },
    caller: { ...SCENARIO_DEFAULTS.limits.caller, ...file.limits?.caller },
  };
  const botRate = parseRate(bot.rate);
  if (botRate !== undefined && refillPerMs(botRate) * durationMs > 50_000_000) {
    issues.push(
      configIssue(
        ['bot', 'rate'],
        'more than 50 million bot requests in one run; shorten the duration or lower the rate',
      ),
    );
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return {
    name: file.name ?? SCENARIO_DEFAULTS.name,
    description: file.description ?? '',
    durationMs,
    seed: file.seed ?? SCENARIO_DEFAULTS.seed,
    shoppers: {
      count: shoppers.count,
      arrivalPerMs: refillPerMs(parseRate(shoppers.arrivalRate)!),
      thinkMinMs: think.minMs,
      thinkMaxMs: think.maxMs,
    },
    bot: {
      perMs: refillPerMs(botRate!),
      rateText: bot.rate,
      target: bot.target,
      startMs: botStart,
      // Never after the end, unless the bot starts after it (an empty window: no bot).
      stopMs: Math.max(botStart, Math.min(botStop, durationMs)),
    },
    limits,
    modes: file.modes ?? [...SCENARIO_DEFAULTS.modes],
    retry: { maxAttempts: retry.maxAttempts, maxWaitMs: parseDuration(retry.maxWait) as number },
    warnings: botWindowWarnings(
      { startMs: botStart, stopAsWrittenMs: botStopAsWritten },
      durationMs,
    ),
  };
}
