import { describe, expect, it } from 'vitest';
import {
  findingOf,
  recordMaker,
  ruleOf,
  unauthenticatedRecord,
} from '../../../test/helpers/check-records.js';
import { checkIntegration } from '../check-integration.js';

const verify = (code: string) =>
  ({ operation: 'verify', email: 'a@example.com', callerId: '203.0.113.1', code }) as const;

describe('retry-on-client-error', () => {
  it('reports the same code sent again within seconds of a 422', () => {
    const make = recordMaker();
    const report = checkIntegration([
      make({ ...verify('111111'), at: 0, status: 422 }),
      make({ ...verify('111111'), at: 1500, status: 422 }),
    ]);
    expect(findingOf(report, 'retry-on-client-error')).toMatchObject({
      severity: 'error',
      message: '1 request repeated unchanged within 5 s of a 422 (2 4xx answers in all)',
      evidence: {
        count: 1,
        examples: [2],
        values: ['verify resent 1500 ms after 422 invalid-request'],
      },
    });
  });

  it('accepts a shopper who types another code after a wrong one', () => {
    const make = recordMaker();
    const report = checkIntegration([
      make({ ...verify('111111'), at: 0, status: 422 }),
      make({ ...verify('111112'), at: 1500, status: 422 }),
      make({ ...verify('123456'), at: 4000 }),
    ]);
    expect(report.summary.logical_requests).toBe(3);
    expect(ruleOf(report, 'retry-on-client-error').status).toBe('passed');
  });

  it('accepts the same code submitted from two tabs at once, when the requests say they are two', () => {
    for (const [first, second] of [
      [{ idempotencyKey: 'tab-a' }, { idempotencyKey: 'tab-b' }],
      [{ retryAttempt: '0' }, { retryAttempt: '0' }],
    ]) {
      const make = recordMaker();
      const report = checkIntegration([
        make({ ...verify('111111'), ...first, at: 0, status: 422 }),
        make({ ...verify('111111'), ...second, at: 3, status: 422 }),
      ]);
      expect(ruleOf(report, 'retry-on-client-error').status).toBe('passed');
    }
  });

  it('takes a tab’s Retry-Attempt 1 for the resend of its own 429, not of the other tab’s 422', () => {
    // Two tabs of one shopper submit the same code at once, each sending Retry-Attempt 0: one is
    // refused 429, the other answered 422. The refused tab resends after its Retry-After with
    // Retry-Attempt 1: a retry of its 429, which the 422 just before it does not make a resend.
    const make = recordMaker();
    const report = checkIntegration([
      make({ ...verify('111111'), retryAttempt: '0', at: 0, status: 429, retryAfter: 1 }),
      make({ ...verify('111111'), retryAttempt: '0', at: 3, status: 422 }),
      make({ ...verify('111111'), retryAttempt: '1', at: 1300, status: 422 }),
    ]);
    expect(ruleOf(report, 'retry-on-client-error').status).toBe('passed');
    expect(ruleOf(report, 'retry-before-retry-after').status).toBe('passed');
  });

  it('still reports a 422 resent with the same Idempotency-Key or a higher Retry-Attempt', () => {
    for (const [first, second] of [
      [{ idempotencyKey: 'k' }, { idempotencyKey: 'k' }],
      [{ retryAttempt: '0' }, { retryAttempt: '1' }],
    ]) {
      const make = recordMaker();
      const report = checkIntegration([
        make({ ...verify('111111'), ...first, at: 0, status: 422 }),
        make({ ...verify('111111'), ...second, at: 600, status: 422 }),
      ]);
      expect(ruleOf(report, 'retry-on-client-error').status).toBe('failed');
    }
  });

  it('accepts the same request again long after', () => {
    const make = recordMaker();
    const report = checkIntegration([
      make({ ...verify('111111'), at: 0, status: 404 }),
      make({ ...verify('111111'), at: 60_000, status: 404 }),
    ]);
    expect(ruleOf(report, 'retry-on-client-error').status).toBe('passed');
  });

  it('is not exercised without a 4xx other than 401 and 429', () => {
    const make = recordMaker();
    const report = checkIntegration([
      make({ ...verify('1'), at: 0, status: 429 }),
      make({ ...verify('1'), at: 1200 }),
      unauthenticatedRecord(9, 0),
      unauthenticatedRecord(10, 5),
    ]);
    expect(ruleOf(report, 'retry-on-client-error').status).toBe('not-exercised');
  });
});
