import { describe, expect, it } from 'vitest';
import { findingOf, ruleOf } from '../../../test/helpers/check-records.js';
import { callers, retrySequences } from '../../../test/helpers/retry-sequences.js';
import { createSeededRandom } from '../../core/time/random.js';
import { checkIntegration } from '../check-integration.js';

describe('retry-without-jitter', () => {
  it('warns when retries after the same attempt all wait the same', () => {
    const report = checkIntegration(retrySequences(callers(8, () => [250])));
    expect(findingOf(report, 'retry-without-jitter')).toMatchObject({
      severity: 'warn',
      message:
        '8 of 8 retries after attempt 1 waited the same 1.25 s (within 120 ms); based on 8 retries: waits 1.25 s ×8',
      evidence: {
        count: 8,
        values: ['waited 1250 ms'],
        figures: { retries: 8, identical: 8, tolerance_ms: 120 },
      },
    });
  });

  it('warns when waits are exactly Retry-After, even when Retry-After differs', () => {
    const records = retrySequences(callers(8, () => [0]));
    // Retry-After 2 s for half of them: the raw waits differ, the backoff beyond it does not.
    records.forEach((record, index) => {
      if (record.status === 429 && index % 4 === 0) record.retry_after = 2;
    });
    for (let index = 1; index < records.length; index += 2)
      records[index]!.at = records[index - 1]!.at + records[index - 1]!.retry_after! * 1000;
    const finding = findingOf(checkIntegration(records), 'retry-without-jitter');
    expect(finding?.message).toMatch(/waited beyond Retry-After the same 0\.00 s/);
  });

  it('warns when callers due back together return within the same 100 ms', () => {
    // Twelve callers refused within 12 ms, whose jitter spreads them over 88 ms only: too few
    // retries after one attempt for the first sign (13 are asked for here), and too little
    // jitter to spread them beyond one 100 ms window.
    const records = retrySequences(
      Array.from({ length: 12 }, (_, caller) => ({ start: caller, backoffs: [caller * 8] })),
    );
    const finding = findingOf(
      checkIntegration(records, { minJitterSamples: 13 }),
      'retry-without-jitter',
    );
    expect(finding).toMatchObject({
      message:
        '12 of 12 retries of different callers due back at the same moment came back within 100 ms of each other',
      evidence: { count: 12, figures: { due_together: 12, bunched: 12 } },
    });
  });

  it('passes a hundred callers refused at once who spread out with full jitter', () => {
    const random = createSeededRandom(8);
    const records = retrySequences(
      Array.from({ length: 100 }, () => ({ start: 0, backoffs: [random.next() * 500] })),
    );
    expect(ruleOf(checkIntegration(records), 'retry-without-jitter').status).toBe('passed');
  });

  it('passes full jitter over many sequences', () => {
    const random = createSeededRandom(3);
    const records = retrySequences(callers(50, () => [random.next() * 500, random.next() * 1000]));
    expect(ruleOf(checkIntegration(records), 'retry-without-jitter').status).toBe('passed');
  });

  it('is not exercised with few retries and no crowd', () => {
    const report = checkIntegration(retrySequences(callers(7, () => [0])));
    expect(ruleOf(report, 'retry-without-jitter')).toMatchObject({
      status: 'not-exercised',
      reason: 'fewer than 8 retries after the same attempt, and no 10 callers due back at once',
    });
  });

  it('does not warn a jittered client whose few waits chance put close together', () => {
    // Five to seven draws of jitter over 500 ms all within 120 ms: chance does this to a correct
    // client in one run in 75 (five draws) to one in 900 (seven).
    for (const count of [5, 6, 7]) {
      const report = checkIntegration(
        retrySequences(callers(count, (caller) => [300 + caller * 15])),
      );
      expect(ruleOf(report, 'retry-without-jitter').status, `${count} retries`).toBe(
        'not-exercised',
      );
    }
    // Asked for, five are judged as before.
    const five = checkIntegration(retrySequences(callers(5, (caller) => [300 + caller * 15])), {
      minJitterSamples: 5,
    });
    expect(ruleOf(five, 'retry-without-jitter').status).toBe('failed');
  });
});
