import type { ConfigFile } from '../core/config/config-schema.js';
import type { Scenario } from './scenario.js';

/** The one client of a simulation: a shop with one merchant. */
export const SIM_CLIENT = 'shop';
export const SIM_TOKEN = 'simulation-token';
export const SIM_MERCHANT = '00000000-0000-4000-8000-00000000c0de';
/** Users whose codes a code-bombing bot requests (not shoppers). */
export const VICTIMS = 50;

/** The e-mail of shopper `index`. */
export function shopperEmail(index: number): string {
  return `shopper-${index}@example.com`;
}

/** The e-mail a code-bombing bot targets on its `index`th request. */
export function victimEmail(index: number): string {
  return `victim-${index % VICTIMS}@example.com`;
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
