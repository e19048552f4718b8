import { describe, expect, it } from 'vitest';
import { findingOf, ruleOf } from '../../../test/helpers/check-records.js';
import { callers, retrySequences } from '../../../test/helpers/retry-sequences.js';
import { createSeededRandom } from '../../core/time/random.js';
import { checkIntegration } from '../check-integration.js';

describe('retry-without-backoff', () => {
  it('warns when every retry waits the same beyond Retry-After', () => {
    const report = checkIntegration(retrySequences(callers(8, () => [0, 0])));
    expect(findingOf(report, 'retry-without-backoff')).toMatchObject({
      severity: 'warn',
      message:
        'the backoff beyond Retry-After stayed the same from one retry to the next in 8 of 8 sequences (median change 0 ms, within 120 ms counted as none); based on 8 pairs of retries: backoffs 0.00 s → 0.00 s ×8',
      evidence: {
        count: 8,
        values: ['waits 1000 ms then 1000 ms (backoff 0 → 0 ms)'],
        figures: { pairs: 8, not_growing: 8, median_growth_ms: 0, tolerance_ms: 120 },
      },
    });
  });

  it('warns when the backoff shrinks', () => {
    const report = checkIntegration(retrySequences(callers(8, (caller) => [800 + caller, 200])));
    expect(findingOf(report, 'retry-without-backoff')?.message).toMatch(/shrank .* 8 of 8/);
  });

  it('passes full jitter, although some single sequences wait less the second time', () => {
    const random = createSeededRandom(11);
    const records = retrySequences(callers(40, () => [random.next() * 500, random.next() * 1000]));
    const report = checkIntegration(records);
    expect(ruleOf(report, 'retry-without-backoff').status).toBe('passed');
  });

  it('passes exponential backoff without jitter (that is the jitter rule’s business)', () => {
    const report = checkIntegration(retrySequences(callers(8, () => [500, 1000])));
    expect(ruleOf(report, 'retry-without-backoff').status).toBe('passed');
    expect(ruleOf(report, 'retry-without-jitter').status).toBe('failed');
  });

  it('is not exercised with fewer than eight requests retried twice', () => {
    const report = checkIntegration(retrySequences(callers(7, () => [0, 0])));
    expect(ruleOf(report, 'retry-without-backoff')).toMatchObject({
      status: 'not-exercised',
      reason: '7 pairs of successive retries waited Retry-After; 8 are needed to judge backoff',
    });
  });

  it('does not warn a full-jitter client whose few pairs chance made shrink', () => {
    // Five shoppers, each retried twice after Retry-After + random × 500 ms, then + random × 1000
    // ms, whose draws all came out shrinking: chance does this to a correct client in one run in
    // 145 (each pair 37 times in 100).
    const draws: [number, number][] = [
      [153, 3],
      [336, 9],
      [388, 330],
      [382, 44],
      [487, 340],
    ];
    const report = checkIntegration(retrySequences(callers(5, (caller) => draws[caller]!)));
    expect(ruleOf(report, 'retry-without-backoff').status).toBe('not-exercised');
    // Asked for, five are judged as before.
    const five = checkIntegration(retrySequences(callers(5, (caller) => draws[caller]!)), {
      minRetrySamples: 5,
    });
    expect(ruleOf(five, 'retry-without-backoff').status).toBe('failed');
  });

  it('counts pairs of retries, not requests, when one request is retried many times', () => {
    // One request, refused 5 times, resent after each Retry-After: 4 pairs of successive retries.
    const report = checkIntegration(retrySequences([{ start: 0, backoffs: [0, 0, 0, 0, 0] }]));
    expect(ruleOf(report, 'retry-without-backoff')).toMatchObject({
      status: 'not-exercised',
      reason: '4 pairs of successive retries waited Retry-After; 8 are needed to judge backoff',
    });
  });

  it('warns a client waiting Retry-After alone, though a loaded machine made a few resends late', () => {
    // 30 shoppers waiting exactly Retry-After; 7 of their second resends came 300 ms late: 23 of
    // 30 pairs is under nine in ten, but 23 waited Retry-After alone, at least three in four.
    const report = checkIntegration(
      retrySequences(callers(30, (caller) => [0, caller < 7 ? 300 : 0])),
    );
    const finding = findingOf(report, 'retry-without-backoff');
    expect(finding).toMatchObject({
      message:
        'the retries waited Retry-After alone, with no backoff beyond it (120 ms at most, the scheduling noise), in 23 of 30 pairs of retries: backoffs 0.00 s → 0.00 s ×23',
      evidence: {
        count: 23,
        figures: { pairs: 30, retry_after_alone: 23, tolerance_ms: 120 },
        values: ['waits 1000 ms then 1000 ms (backoff 0 → 0 ms)'],
      },
    });
    // Eight late of 30: under three in four, and the rule errs towards silence.
    const eight = checkIntegration(
      retrySequences(callers(30, (caller) => [0, caller < 8 ? 300 : 0])),
    );
    expect(ruleOf(eight, 'retry-without-backoff').status).toBe('passed');
  });

  it('passes full jitter in every one of 300 runs of 30 pairs, also with its first retries late', () => {
    // Each run: 30 shoppers of uas's own policy (random × 500 ms, then random × 1000 ms); in the
    // second set, a loaded machine delays every first resend by up to 300 ms more.
    const failed: string[] = [];
    for (let seed = 1; seed <= 300; seed++) {
      for (const late of [0, 300]) {
        const random = createSeededRandom(seed);
        const records = retrySequences(
          callers(30, () => [random.next() * 500 + random.next() * late, random.next() * 1000]),
        );
        const rule = ruleOf(checkIntegration(records), 'retry-without-backoff');
        if (rule.status !== 'passed') failed.push(`seed ${seed}, late ${late}`);
      }
    }
    expect(failed).toEqual([]);
  });
});
