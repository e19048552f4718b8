import { createSeededRandom } from '../core/time/random.js';
import type { Scenario } from './scenario.js';

/** The legitimate traffic of a scenario: the same in every mode, so modes compare fairly. */
export interface Traffic {
  /** Arrival time of each shopper, in ms from the start, ascending. */
  arrivals: number[];
  /** Pauses of each shopper: before start (reading the page) and before verify (reading the e-mail). */
  thinks: Array<[number, number]>;
}

/**
 * Draws shopper arrivals (a Poisson process at the arrival rate, until the count is reached or
 * the scenario ends) and think times (uniform in the range) from the scenario's seed.
 */
export function generateTraffic(scenario: Scenario): Traffic {
  const random = createSeededRandom(scenario.seed);
  const { count, arrivalPerMs, thinkMinMs, thinkMaxMs } = scenario.shoppers;
  const arrivals: number[] = [];
  const thinks: Array<[number, number]> = [];
  let time = 0;
  while (arrivals.length < count) {
    time += -Math.log(1 - random.next()) / arrivalPerMs;
    if (time >= scenario.durationMs) break;
    arrivals.push(Math.round(time));
    const think = () => Math.round(thinkMinMs + (thinkMaxMs - thinkMinMs) * random.next());
    thinks.push([think(), think()]);
  }
  return { arrivals, thinks };
}

/**
 * The networks set aside for documentation (RFC 5737): addresses no real shopper has, and that
 * `uas check` does not take for a proxy's or a socket's (as it does 10.0.0.0/8).
 */
const DOCUMENTATION_NETWORKS = ['192.0.2', '198.51.100', '203.0.113'];

/** The bot's caller_id in the modes where it sends its own: a documentation address too. */
export const BOT_ADDRESS = '203.0.113.66';

/** Hosts .1 to .254 of each documentation network, but the bot's. */
const SHOPPER_ADDRESSES = DOCUMENTATION_NETWORKS.flatMap((network) =>
  Array.from({ length: 254 }, (_, host) => `${network}.${host + 1}`),
).filter((address) => address !== BOT_ADDRESS);

/**
 * A distinct address for shopper `index`: one of the 761 IPv4 documentation addresses (RFC
 * 5737), then, past them, one of the IPv6 documentation prefix (RFC 3849, 2001:db8:5::/48, apart
 * from the rotating bot's).
 */
export function shopperAddress(index: number): string {
  const ipv4 = SHOPPER_ADDRESSES[index];
  if (ipv4 !== undefined) return ipv4;
  const beyond = index - SHOPPER_ADDRESSES.length;
  return `2001:db8:5::${(beyond >>> 16).toString(16)}:${(beyond & 0xffff).toString(16)}`;
}

/** A distinct address for the `index`th request of a rotating bot (in 2001:db8::/32). */
export function rotatingAddress(index: number): string {
  return `2001:db8::${(index >>> 16).toString(16)}:${(index & 0xffff).toString(16)}`;
}
