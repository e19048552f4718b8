import { describe, expect, it } from 'vitest';
import {
  findingOf,
  recordMaker,
  ruleOf,
  type RecordSpec,
} from '../../../test/helpers/check-records.js';
import { checkIntegration } from '../check-integration.js';

/** One shopper, one bucket, a request every 100 ms while told to wait a second, each a 429. */
function hammering(spec: Partial<RecordSpec> = {}) {
  const make = recordMaker();
  return Array.from({ length: 8 }, (_, index) =>
    make({
      at: index * 100,
      operation: index % 2 === 0 ? 'exists' : 'start',
      email: 'a@example.com',
      callerId: '203.0.113.1',
      status: 429,
      retryAfter: 1,
      ...spec,
    }),
  );
}

describe('ignores-429', () => {
  it('reports a sender that keeps hitting an empty bucket within its Retry-After', () => {
    expect(findingOf(checkIntegration(hammering()), 'ignores-429')).toMatchObject({
      severity: 'error',
      message:
        '1 sender kept sending to an empty bucket within its Retry-After; "caller:demo:203.0.113.1" got 7 such 429s in 0.6 s',
      evidence: {
        count: 1,
        examples: [2, 3, 4, 5, 6],
        values: ['caller:demo:203.0.113.1: 7 429s'],
      },
    });
  });

  it('judges the 429s of a real service that names no bucket (uas serve --upstream)', () => {
    const records = hammering().map((record) => ({
      ...record,
      bucket: undefined,
      level: undefined,
    }));
    expect(findingOf(checkIntegration(records), 'ignores-429')).toMatchObject({
      message:
        '1 sender kept sending to an empty bucket within its Retry-After; a bucket its answers did not name got 7 such 429s in 0.6 s',
      evidence: { count: 1, values: ['(bucket not named): 7 429s'] },
    });
  });

  it('does not blame a shopper for the 429 of a neighbour behind the same address', () => {
    const make = recordMaker();
    const records = Array.from({ length: 8 }, (_, index) =>
      make({
        at: index * 100,
        email: `shopper${index}@example.com`,
        callerId: '203.0.113.1',
        status: 429,
      }),
    );
    expect(ruleOf(checkIntegration(records), 'ignores-429').status).toBe('passed');
  });

  it('passes a sender that waits out each Retry-After', () => {
    const make = recordMaker();
    const records = [0, 1100, 2300, 3500, 4700, 5900].map((at) =>
      make({ at, email: 'a@example.com', callerId: '203.0.113.1', status: 429 }),
    );
    expect(ruleOf(checkIntegration(records), 'ignores-429').status).toBe('passed');
  });

  it('ends a run at an answer that shows the bucket had a token', () => {
    const make = recordMaker();
    const who = { email: 'a@example.com', callerId: '203.0.113.1' };
    // Four ignored 429s, a 200 (a token came back), four more: two runs of 4, neither of 5.
    const records = Array.from({ length: 10 }, (_, index) =>
      make({ ...who, at: index * 100, status: index === 5 ? 200 : 429, retryAfter: 5 }),
    );
    expect(ruleOf(checkIntegration(records), 'ignores-429').status).toBe('passed');
  });

  it('does not chain injected 429s of different requests into a run: the bucket was not empty', () => {
    const make = recordMaker();
    const who = { email: 'a@example.com', callerId: '203.0.113.1' };
    // A test suite's steps for one shopper, each a different request, each refused by --chaos.
    const records = Array.from({ length: 8 }, (_, index) =>
      make({
        ...who,
        at: index * 100,
        operation: 'verify',
        code: String(100_000 + index),
        status: 429,
        retryAfter: 5,
        injected: true,
        remaining: 4,
      }),
    );
    expect(ruleOf(checkIntegration(records), 'ignores-429').status).toBe('passed');
  });

  it('keeps apart identical requests sent at once that say they are two (Idempotency-Key, Retry-Attempt)', () => {
    const who = { email: 'a@example.com', callerId: '203.0.113.1' };
    const chaos = { status: 429, injected: true, remaining: 20 };
    // A shopper's two tabs, each retrying its own exists 3 times after Retry-After plus jitter,
    // each attempt refused by --chaos: the tabs' attempts come within each other's Retry-After.
    const tabs = (header: (tab: string, attempt: number) => Partial<RecordSpec>) => {
      const make = recordMaker();
      return [
        make({ ...who, ...chaos, at: 0, retryAfter: 1, ...header('A', 0) }),
        make({ ...who, ...chaos, at: 5, retryAfter: 2, ...header('B', 0) }),
        make({ ...who, ...chaos, at: 1100, retryAfter: 2, ...header('A', 1) }),
        make({ ...who, ...chaos, at: 2100, retryAfter: 2, ...header('B', 1) }),
        make({ ...who, ...chaos, at: 3200, retryAfter: 2, ...header('A', 2) }),
        make({ ...who, ...chaos, at: 4200, retryAfter: 2, ...header('B', 2) }),
      ];
    };
    const keyed = tabs((tab) => ({ idempotencyKey: tab }));
    expect(ruleOf(checkIntegration(keyed), 'ignores-429').status).toBe('passed');
    const counted = tabs((_, attempt) => ({ retryAttempt: String(attempt) }));
    expect(ruleOf(checkIntegration(counted), 'ignores-429').status).toBe('passed');
  });

  it('says so when the 429s resent through were injected into a bucket that had tokens', () => {
    const make = recordMaker();
    const who = { email: 'a@example.com', callerId: '203.0.113.1' };
    // The same request, resent every 100 ms although each 429 asked for 3 s.
    const records = Array.from({ length: 7 }, (_, index) =>
      make({ ...who, at: index * 100, status: 429, retryAfter: 3, injected: true, remaining: 4 }),
    );
    expect(findingOf(checkIntegration(records), 'ignores-429')).toMatchObject({
      message:
        '1 sender kept resending within the Retry-After of a 429; "caller:demo:203.0.113.1" got 6 such 429s in 0.5 s; all 6 injected by --chaos (or a scripted fault) while the bucket had 4 tokens: the bucket was not empty',
      evidence: { figures: { most_429s: 6, injected_429s: 6 } },
    });
  });

  it('counts an injected 429 into an empty bucket as the bucket being empty', () => {
    const records = hammering({ injected: true, remaining: 0 });
    expect(findingOf(checkIntegration(records), 'ignores-429')?.message).toBe(
      '1 sender kept sending to an empty bucket within its Retry-After; "caller:demo:203.0.113.1" got 7 such 429s in 0.6 s',
    );
  });

  it('is not exercised without a 429', () => {
    const make = recordMaker();
    const report = checkIntegration([make({ at: 0, email: 'a@example.com', callerId: 'x' })]);
    expect(ruleOf(report, 'ignores-429').status).toBe('not-exercised');
  });
});
