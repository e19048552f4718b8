import { describe, expect, it } from 'vitest';
import { findingOf, recordMaker, ruleOf } from '../../../test/helpers/check-records.js';
import { checkIntegration } from '../check-integration.js';

describe('ignores-429', () => {
  it('reports a sender that keeps hitting an empty bucket within its Retry-After', () => {
    const make = recordMaker();
    // One shopper, one bucket, a request every 100 ms while told to wait a second.
    const records = Array.from({ length: 8 }, (_, index) =>
      make({
        at: index * 100,
        operation: index % 2 === 0 ? 'exists' : 'start',
        email: 'a@example.com',
        callerId: '203.0.113.1',
        status: 429,
        retryAfter: 1,
      }),
    );
    expect(findingOf(checkIntegration(records), 'ignores-429')).toMatchObject({
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

  it('is not exercised without a 429', () => {
    const make = recordMaker();
    const report = checkIntegration([make({ at: 0, email: 'a@example.com', callerId: 'x' })]);
    expect(ruleOf(report, 'ignores-429').status).toBe('not-exercised');
  });
});
