import { decideRetry, RETRY_DEFAULTS, type ResolvedRetryOptions } from '../client/retry-policy.js';
import type { Operation } from '../core/config/config.js';
import { createCoreEmulator } from '../core/create-core-emulator.js';
import type { Emulator } from '../core/emulator.js';
import type { OperationInput } from '../core/service/request-input.js';
import { createManualClock, type ManualClock } from '../core/time/clock.js';
import { createSeededRandom, type RandomSource } from '../core/time/random.js';
import { EventQueue } from './event-queue.js';
import {
  countBotAnswer,
  countFlowEnd,
  countRetry,
  countShopperAnswer,
  countUnfinished,
  createModeStats,
  type ModeStats,
} from './mode-stats.js';
import type { Mode, Scenario } from './scenario.js';
import { FLOW_STEPS, botDueMs, botRequest, shopperOf, thinkAfter } from './shopper-flow.js';
import { simulationConfig, SIM_CLIENT, SIM_MERCHANT } from './simulation-config.js';
import type { Traffic } from './traffic.js';

interface ShopperState {
  index: number;
  step: number;
  attempt: number;
}

/** Options of {@link runVirtualMode}. */
export interface VirtualRunOptions {
  /**
   * Called as virtual time passes: at 0, every `stepMs` of simulated time after it (whether a
   * request falls in the step or not), and at the end of the run; the run waits for it, so it
   * may pace or pause the run. The clock is set to `now` before each call.
   */
  onTick?: (now: number, emulator: Emulator, stats: ModeStats) => Promise<void> | void;
  stepMs?: number;
}

/** One mode's run in virtual time: the emulator it drives, and where it stands. */
interface VirtualRun {
  scenario: Scenario;
  traffic: Traffic;
  mode: Mode;
  clock: ManualClock;
  emulator: Emulator;
  stats: ModeStats;
  /** Shoppers' next steps, by time. */
  queue: EventQueue<ShopperState>;
  retry: ResolvedRetryOptions;
  jitter: RandomSource;
  requests: number;
  /** Bot requests sent so far. */
  botCount: number;
}

/**
 * Runs one mode of a scenario over the emulator core on a manual clock: deterministic for a
 * seed, and as fast as the core answers. Shoppers follow the spec's retry policy; the bot does
 * not retry.
 */
export async function runVirtualMode(
  scenario: Scenario,
  traffic: Traffic,
  mode: Mode,
  options: VirtualRunOptions = {},
): Promise<{ stats: ModeStats; requests: number }> {
  const run = startVirtualRun(scenario, traffic, mode);
  const { bot } = scenario;
  const ticker = createTicker(run, options);
  for (;;) {
    const shopperTime = run.queue.peekTime();
    const nextBot = botDueMs(bot, run.botCount);
    const now = Math.min(shopperTime, nextBot < bot.stopMs ? nextBot : Infinity);
    if (now >= scenario.durationMs || now === Infinity) break;
    if (ticker.due(now)) await ticker.until(now);
    run.clock.set(now);
    if (nextBot <= shopperTime && nextBot < bot.stopMs) sendBotRequest(run, now);
    else stepShopper(run, now, run.queue.pop()!.item);
  }
  // The quiet end of the run is played too, up to its last moment.
  await ticker.end();
  countUnfinished(run.stats);
  return { stats: run.stats, requests: run.requests };
}

function startVirtualRun(scenario: Scenario, traffic: Traffic, mode: Mode): VirtualRun {
  const clock = createManualClock(0);
  const run: VirtualRun = {
    scenario,
    traffic,
    mode,
    clock,
    emulator: createCoreEmulator({
      config: simulationConfig(scenario, traffic.arrivals.length),
      clock,
      random: createSeededRandom(scenario.seed ^ 0x5eed),
    }),
    jitter: createSeededRandom(scenario.seed ^ 0x717),
    retry: {
      ...RETRY_DEFAULTS,
      maxAttempts: scenario.retry.maxAttempts,
      maxWaitMs: scenario.retry.maxWaitMs,
    },
    stats: createModeStats(mode),
    queue: new EventQueue<ShopperState>(),
    requests: 0,
    botCount: 0,
  };
  traffic.arrivals.forEach((time, index) => run.queue.push(time, { index, step: 0, attempt: 1 }));
  run.stats.shoppers.arrived = traffic.arrivals.length;
  return run;
}

/**
 * Tells `onTick` of every step of simulated time: `until(time)` before what happens at `time`,
 * `end()` up to the run's last moment.
 */
function createTicker(run: VirtualRun, { onTick, stepMs = Infinity }: VirtualRunOptions) {
  let nextTick = onTick === undefined ? Infinity : 0;
  const until = async (time: number) => {
    if (onTick === undefined) return;
    while (nextTick <= time) {
      run.clock.set(nextTick);
      await onTick(nextTick, run.emulator, run.stats);
      nextTick += stepMs;
    }
  };
  const { durationMs } = run.scenario;
  return {
    /** Whether a tick falls at or before `time`. */
    due: (time: number) => nextTick <= time,
    until,
    async end() {
      await until(durationMs);
      if (onTick !== undefined && nextTick - stepMs < durationMs) {
        run.clock.set(durationMs);
        await onTick(durationMs, run.emulator, run.stats);
      }
    },
  };
}

/** Asks the emulator; the status, or minus the seconds until the bucket resets for a 429. */
function call(
  run: VirtualRun,
  operation: Operation,
  callerId: string | undefined,
  input: OperationInput,
): number {
  run.requests++;
  const result = run.emulator.execute({
    operation,
    clientId: SIM_CLIENT,
    callerId,
    merchantId: operation === 'exists' ? undefined : SIM_MERCHANT,
    input: { ok: true, input, callerId, fields: undefined },
  });
  return result.status === 429 ? -result.resetSeconds : result.status;
}

/** The bot's next request, sent at `now`. */
function sendBotRequest(run: VirtualRun, now: number): void {
  const { target } = run.scenario.bot;
  const { email, callerId } = botRequest(run.scenario.bot, run.mode, run.botCount);
  const status = call(
    run,
    target,
    callerId,
    target === 'exists'
      ? { operation: 'exists', email, phone_number: undefined, caller_id: undefined }
      : { operation: 'start', email, caller_id: undefined },
  );
  countBotAnswer(run.stats, now, run.scenario.durationMs, status < 0 ? 'refused' : 'allowed');
  run.botCount++;
}

/** A shopper's step at `now`: the request, then a retry, the next step, or the end of the flow. */
function stepShopper(run: VirtualRun, now: number, shopper: ShopperState): void {
  const { index, step } = shopper;
  const { durationMs } = run.scenario;
  const arrival = run.traffic.arrivals[index] as number;
  const operation = FLOW_STEPS[step] as Operation;
  const { email, callerId } = shopperOf(run.mode, index);
  const status = call(run, operation, callerId, stepInput(run, operation, email, callerId));
  countShopperAnswer(run.stats, now, durationMs, status < 0);
  if (status < 0) {
    const decision = decideRetry(
      { kind: 'status', status: 429, retryAfterMs: -status * 1000 },
      shopper.attempt,
      operation === 'exists',
      run.retry,
      run.jitter,
    );
    if (decision.retry) {
      countRetry(run.stats, decision.delayMs);
      run.queue.push(now + decision.delayMs, { index, step, attempt: shopper.attempt + 1 });
    } else
      countFlowEnd(run.stats, now, durationMs, arrival, {
        completed: false,
        step: operation,
        rateLimited: true,
      });
  } else if (status >= 400)
    countFlowEnd(run.stats, now, durationMs, arrival, {
      completed: false,
      step: operation,
      rateLimited: false,
    });
  else if (step === FLOW_STEPS.length - 1)
    countFlowEnd(run.stats, now, durationMs, arrival, { completed: true });
  else
    run.queue.push(now + thinkAfter(run.traffic, index, step), {
      index,
      step: step + 1,
      attempt: 1,
    });
}

/** What a shopper sends at `operation`: verify carries the latest code the emulator issued. */
function stepInput(
  run: VirtualRun,
  operation: Operation,
  email: string,
  callerId: string | undefined,
): OperationInput {
  if (operation === 'exists')
    return { operation, email, phone_number: undefined, caller_id: callerId };
  if (operation === 'start') return { operation, email, caller_id: callerId };
  return {
    operation,
    email,
    verification_code: run.emulator.latestCode(email, SIM_MERCHANT)?.code ?? '0',
    caller_id: callerId,
  };
}
