import type { Clock } from '../core/time/clock.js';
import type { RandomSource } from '../core/time/random.js';

/** The wall clock, for the server. */
export const systemClock: Clock = { now: () => Date.now() };

/** Math.random, for codes and chaos outside of simulations. */
export const systemRandom: RandomSource = { next: () => Math.random() };
