import { decideRetry, RETRY_DEFAULTS, type ResolvedRetryOptions } from '../client/retry-policy.js';
import { createManualClock } from '../core/time/clock.js';
import type { Operation } from '../core/config/config.js';
import { createCoreEmulator } from '../core/create-core-emulator.js';
import type { Emulator, ServiceCall } from '../core/emulator.js';
import { createSeededRandom } from '../core/time/random.js';
import type { OperationInput } from '../core/service/request-input.js';
import { binAt, createModeStats, type ModeStats } from './mode-stats.js';
import type { Mode, Scenario } from './scenario.js';
import {
  simulationConfig,
  SIM_CLIENT,
  SIM_MERCHANT,
  shopperEmail,
  victimEmail,
} from './simulation-config.js';
import { BOT_ADDRESS, rotatingAddress, shopperAddress, type Traffic } from './traffic.js';
import { EventQueue } from './event-queue.js';

/** Timeline bins of every report. */
export const TIMELINE_BINS = 24;

const STEPS: Operation[] = ['exists', 'start', 'verify'];
const STATIC_CALLER = 'checkout-backend';

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
  const clock = createManualClock(0);
  const emulator = createCoreEmulator({
    config: simulationConfig(scenario, traffic.arrivals.length),
    clock,
    random: createSeededRandom(scenario.seed ^ 0x5eed),
  });
  const jitter = createSeededRandom(scenario.seed ^ 0x717);
  const retry: ResolvedRetryOptions = {
    ...RETRY_DEFAULTS,
    maxAttempts: scenario.retry.maxAttempts,
    maxWaitMs: scenario.retry.maxWaitMs,
  };
  const stats = createModeStats(mode, TIMELINE_BINS);
  const queue = new EventQueue<ShopperState>();
  traffic.arrivals.forEach((time, index) => queue.push(time, { index, step: 0, attempt: 1 }));
  stats.shoppers.arrived = traffic.arrivals.length;

  const { bot } = scenario;
  const botInterval = 1 / bot.perMs;
  let botCount = 0;
  let nextBot = bot.startMs;
  let requests = 0;
  const stepMs = options.stepMs ?? Infinity;
  const { onTick } = options;
  let nextTick = onTick === undefined ? Infinity : 0;
  /** Tells onTick every step of simulated time up to `time`, before what happens at `time`. */
  const tickUntil = async (time: number) => {
    if (onTick === undefined) return;
    while (nextTick <= time) {
      clock.set(nextTick);
      await onTick(nextTick, emulator, stats);
      nextTick += stepMs;
    }
  };

  const call = (
    operation: Operation,
    callerId: string | undefined,
    input: OperationInput,
  ): number => {
    const serviceCall: ServiceCall = {
      operation,
      clientId: SIM_CLIENT,
      callerId,
      merchantId: operation === 'exists' ? undefined : SIM_MERCHANT,
      input: { ok: true, input, callerId, fields: undefined },
    };
    requests++;
    const result = emulator.execute(serviceCall);
    return result.status === 429 ? -result.resetSeconds : result.status;
  };

  const shopperCaller = (index: number): string | undefined =>
    mode === 'shared' ? undefined : mode === 'static' ? STATIC_CALLER : shopperAddress(index);
  const botCaller = (): string | undefined =>
    mode === 'shared'
      ? undefined
      : mode === 'static'
        ? STATIC_CALLER
        : mode === 'rotating'
          ? rotatingAddress(botCount)
          : BOT_ADDRESS;

  const end = (
    index: number,
    now: number,
    completed: boolean,
    step: number,
    rateLimited = false,
  ) => {
    const bin = binAt(stats, now, scenario.durationMs);
    if (completed) {
      stats.shoppers.completed++;
      stats.flowTimes.push(now - (traffic.arrivals[index] as number));
      bin.completed++;
    } else {
      stats.shoppers.failed++;
      if (rateLimited) stats.shoppers.rateLimited++;
      stats.shoppers.failedAt[STEPS[step] as Operation]++;
      bin.failed++;
    }
  };

  for (;;) {
    const shopperTime = queue.peekTime();
    const now = Math.min(shopperTime, nextBot < bot.stopMs ? nextBot : Infinity);
    if (now >= scenario.durationMs || now === Infinity) break;
    if (now >= nextTick) await tickUntil(now);
    clock.set(now);
    if (nextBot <= shopperTime && nextBot < bot.stopMs) {
      const email =
        bot.target === 'exists' ? `probe-${botCount}@example.net` : victimEmail(botCount);
      const status = call(
        bot.target,
        botCaller(),
        bot.target === 'exists'
          ? { operation: 'exists', email, phone_number: undefined, caller_id: undefined }
          : { operation: 'start', email, caller_id: undefined },
      );
      const bin = binAt(stats, now, scenario.durationMs);
      stats.bot.requests++;
      bin.botRequests++;
      if (status < 0) stats.bot.rejected++;
      else {
        stats.bot.allowed++;
        bin.botAllowed++;
      }
      botCount++;
      nextBot = bot.startMs + botCount * botInterval;
      continue;
    }
    const event = queue.pop()!;
    const shopper = event.item;
    const { index } = shopper;
    const email = shopperEmail(index);
    const callerId = shopperCaller(index);
    const operation = STEPS[shopper.step] as Operation;
    let input: OperationInput;
    if (operation === 'exists')
      input = { operation, email, phone_number: undefined, caller_id: callerId };
    else if (operation === 'start') input = { operation, email, caller_id: callerId };
    else
      input = {
        operation,
        email,
        verification_code: emulator.latestCode(email, SIM_MERCHANT)?.code ?? '0',
        caller_id: callerId,
      };
    const status = call(operation, callerId, input);
    const bin = binAt(stats, now, scenario.durationMs);
    stats.legit.requests++;
    bin.requests++;
    if (status < 0) {
      stats.legit.rejected++;
      bin.refused++;
      const decision = decideRetry(
        { kind: 'status', status: 429, retryAfterMs: -status * 1000 },
        shopper.attempt,
        operation === 'exists',
        retry,
        jitter,
      );
      if (decision.retry) {
        stats.legit.retries++;
        stats.legit.waitedMs += decision.delayMs;
        queue.push(now + decision.delayMs, {
          index,
          step: shopper.step,
          attempt: shopper.attempt + 1,
        });
      } else {
        end(index, now, false, shopper.step, true);
      }
      continue;
    }
    if (status >= 400) {
      end(index, now, false, shopper.step);
      continue;
    }
    if (shopper.step === 2) {
      end(index, now, true, 2);
      continue;
    }
    const think = (traffic.thinks[index] as [number, number])[shopper.step] as number;
    queue.push(now + think, { index, step: shopper.step + 1, attempt: 1 });
  }
  // The quiet end of the run is played too, up to its last moment.
  await tickUntil(scenario.durationMs);
  if (onTick !== undefined && nextTick - stepMs < scenario.durationMs) {
    clock.set(scenario.durationMs);
    await onTick(scenario.durationMs, emulator, stats);
  }
  stats.shoppers.unfinished =
    stats.shoppers.arrived - stats.shoppers.completed - stats.shoppers.failed;
  return { stats, requests };
}
