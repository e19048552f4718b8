import { describe, expect, it } from 'vitest';
import { ruleOf } from '../../../test/helpers/check-records.js';
import { retrySequences, type Sequence } from '../../../test/helpers/retry-sequences.js';
import { createSeededRandom } from '../../core/time/random.js';
import { checkIntegration } from '../check-integration.js';

// Waits are measured between arrivals at the emulator: on a loaded machine every resend arrives
// late by its share of scheduling noise, here up to 110 ms. The backoff and jitter rules must
// judge a client the same way on an idle laptop and on a busy CI runner.

/** Lateness of each resend: 50 to 110 ms (a loaded machine), or anything up to 110 ms. */
const NOISES = {
  'loaded (50 to 110 ms late)': (next: () => number) => 50 + next() * 60,
  'anything up to 110 ms late': (next: () => number) => next() * 110,
};

/**
 * `count` callers refused twice, each resending after Retry-After (1 s) plus the backoffs
 * `client` draws, each resend late by `late`. `together`: refused within a few ms of each other.
 */
function noisy(
  seed: number,
  count: number,
  together: boolean,
  late: (next: () => number) => number,
  client: (next: () => number) => [number, number],
): ReturnType<typeof retrySequences> {
  const random = createSeededRandom(seed);
  const next = () => random.next();
  const sequences: Sequence[] = Array.from({ length: count }, (_, caller) => ({
    start: together ? caller * 3 : caller * 10_000,
    backoffs: client(next).map((backoff) => backoff + late(next)),
  }));
  return retrySequences(sequences);
}

const CLIENTS = {
  /** uas's own: full jitter over 500 ms, then 1000 ms. */
  fullJitter: (next: () => number): [number, number] => [next() * 500, next() * 1000],
  /** A delay drawn once per request, the same on every retry: jittered, never growing. */
  fixedDelay: (next: () => number): [number, number] => {
    const delay = next() * 500;
    return [delay, delay];
  },
  /** Exponential backoff with nothing random. */
  noJitter: (): [number, number] => [500, 1000],
  /** Exactly Retry-After, nothing more. */
  exactRetryAfter: (): [number, number] => [0, 0],
};

const SEEDS = Array.from({ length: 20 }, (_, index) => index + 1);

type Status = 'passed' | 'failed';

// Each client, crowd and what the two rules must say of it on every seed.
const CASES: [keyof typeof CLIENTS, number, boolean, { backoff: Status; jitter: Status }][] = [
  ['fullJitter', 12, false, { backoff: 'passed', jitter: 'passed' }],
  ['fullJitter', 12, true, { backoff: 'passed', jitter: 'passed' }],
  ['fullJitter', 40, false, { backoff: 'passed', jitter: 'passed' }],
  ['fixedDelay', 8, false, { backoff: 'failed', jitter: 'passed' }],
  ['fixedDelay', 12, true, { backoff: 'failed', jitter: 'passed' }],
  ['fixedDelay', 40, false, { backoff: 'failed', jitter: 'passed' }],
  ['noJitter', 8, false, { backoff: 'passed', jitter: 'failed' }],
  ['noJitter', 12, true, { backoff: 'passed', jitter: 'failed' }],
  ['noJitter', 40, false, { backoff: 'passed', jitter: 'failed' }],
  ['exactRetryAfter', 8, false, { backoff: 'failed', jitter: 'failed' }],
  ['exactRetryAfter', 12, true, { backoff: 'failed', jitter: 'failed' }],
];

describe.each(Object.entries(NOISES))('retry timing with scheduling noise: %s', (_name, late) => {
  it.each(CASES)(
    'judges a %s client of %i callers (refused together: %s) the same on every seed',
    (client, count, together, expected) => {
      for (const seed of SEEDS) {
        const report = checkIntegration(noisy(seed, count, together, late, CLIENTS[client]));
        expect({
          backoff: ruleOf(report, 'retry-without-backoff').status,
          jitter: ruleOf(report, 'retry-without-jitter').status,
        }).toEqual(expected);
      }
    },
  );
});
