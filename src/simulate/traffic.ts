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

/** A distinct IPv4 address for shopper `index` (in 10.0.0.0/8). */
export function shopperAddress(index: number): string {
  return `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
}

/** A distinct address for the `index`th request of a rotating bot (in 2001:db8::/32). */
export function rotatingAddress(index: number): string {
  return `2001:db8::${(index >>> 16).toString(16)}:${(index & 0xffff).toString(16)}`;
}
