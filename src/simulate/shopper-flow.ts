import type { Operation } from '../core/config/config.js';
import type { Mode, Scenario } from './scenario.js';
import { modeTag, shopperEmail, victimEmail } from './simulation-config.js';
import { BOT_ADDRESS, rotatingAddress, shopperAddress, type Traffic } from './traffic.js';

/** The steps of a shopper's sign-in, in order; a think time comes before start and verify. */
export const FLOW_STEPS: readonly Operation[] = ['exists', 'start', 'verify'];

/** The caller_id every request sends in the `static` mode: one backend's for all. */
const STATIC_CALLER = 'checkout-backend';

/**
 * Who shopper `index` is in `mode`: the e-mail it signs in with (one of the mode's own when
 * `perMode`, as a live run asks) and the caller_id it sends.
 */
export function shopperOf(
  mode: Mode,
  index: number,
  perMode = false,
): { email: string; callerId: string | undefined } {
  const callerId =
    mode === 'shared' ? undefined : mode === 'static' ? STATIC_CALLER : shopperAddress(index);
  return { email: shopperEmail(index, perMode ? mode : undefined), callerId };
}

/** How long shopper `index` thinks after `step` (0: exists, 1: start), before the next step. */
export function thinkAfter(traffic: Traffic, index: number, step: number): number {
  return (traffic.thinks[index] as [number, number])[step] as number;
}

/** When the bot's `index`th request is due, in ms from the start of the run. */
export function botDueMs(bot: Scenario['bot'], index: number): number {
  return bot.startMs + index * (1 / bot.perMs);
}

/**
 * The bot's `index`th request in `mode`: the e-mail it sends (an address no one has when it
 * enumerates, a victim's when it bombs codes; of the mode's own when `perMode`) and its caller_id (its own, a new one per request
 * when rotating, or the one the shoppers share).
 */
export function botRequest(
  bot: Scenario['bot'],
  mode: Mode,
  index: number,
  perMode = false,
): { email: string; callerId: string | undefined } {
  const tag = perMode ? mode : undefined;
  const callerId =
    mode === 'shared'
      ? undefined
      : mode === 'static'
        ? STATIC_CALLER
        : mode === 'rotating'
          ? rotatingAddress(index)
          : BOT_ADDRESS;
  return {
    email:
      bot.target === 'exists'
        ? `probe-${index}${modeTag(tag)}@example.net`
        : victimEmail(index, tag),
    callerId,
  };
}
