import type { ConfigFile } from '../core/config/config-schema.js';
import type { Scenario } from './scenario.js';

/** The one client of a simulation: a shop with one merchant. */
export const SIM_CLIENT = 'shop';
export const SIM_TOKEN = 'simulation-token';
export const SIM_MERCHANT = '00000000-0000-4000-8000-00000000c0de';
/** Users whose codes a code-bombing bot requests (not shoppers). */
export const VICTIMS = 50;
/**
 * The most shoppers of a scenario: with the victims, as many users as an emulator's config holds
 * (`BOUNDS.users`, 100,000), since every shopper is one of its users.
 */
export const MAX_SHOPPERS = 99_950;

/**
 * The e-mail of shopper `index`; with `mode` (a live run), one of that mode's own, so that a
 * journal of several modes (`uas check --url` on a live run) never takes a request of one mode
 * for a resend of another's.
 */
export function shopperEmail(index: number, mode?: string): string {
  return `shopper-${index}${modeTag(mode)}@example.com`;
}

/** The e-mail a code-bombing bot targets on its `index`th request (of `mode`'s own, as above). */
export function victimEmail(index: number, mode?: string): string {
  return `victim-${index % VICTIMS}${modeTag(mode)}@example.com`;
}

/** The part of an e-mail that names its mode: `.per-caller`, or nothing. */
export function modeTag(mode: string | undefined): string {
  return mode === undefined ? '' : `.${mode}`;
}

/** The emulator config of a simulation: its shoppers and victims as users, the scenario's limits. */
export function simulationConfig(scenario: Scenario, shoppers: number): ConfigFile {
  const users = [];
  for (let index = 0; index < shoppers; index++) users.push({ email: shopperEmail(index) });
  for (let index = 0; index < VICTIMS; index++) users.push({ email: victimEmail(index) });
  return {
    clients: [{ id: SIM_CLIENT, token: SIM_TOKEN, merchants: [SIM_MERCHANT] }],
    users,
    // A full bucket is the same as none: the simulation drops them at once, which keeps a
    // rotating bot's one-off buckets from piling up.
    limits: { keepFullBuckets: 0, ...scenario.limits },
    journal: { size: 1 },
  };
}
