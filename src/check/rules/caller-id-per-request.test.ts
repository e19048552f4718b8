import { describe, expect, it } from 'vitest';
import { findingOf, recordMaker, ruleOf } from '../../../test/helpers/check-records.js';
import { checkIntegration } from '../check-integration.js';

describe('caller-id-per-request', () => {
  it('reports a caller_id that changes on every request of an end-user', () => {
    const make = recordMaker();
    const records = ['exists', 'start', 'verify'].flatMap((operation, step) =>
      ['a', 'b'].map((user, index) =>
        make({
          at: step * 1000 + index,
          operation: operation as 'exists' | 'start' | 'verify',
          email: `${user}@example.com`,
          code: operation === 'verify' ? '123456' : undefined,
          callerId: `req-${step}-${index}`,
        }),
      ),
    );
    const finding = findingOf(checkIntegration(records), 'caller-id-per-request');
    expect(finding).toMatchObject({
      severity: 'error',
      message:
        'caller_id changed on nearly every request of 2 of 2 end-users; "a@example.com" sent 3 values in 3 requests',
      evidence: { count: 2, values: ['req-0-0', 'req-1-0', 'req-2-0'], examples: [1, 3, 5] },
    });
  });

  it('recognises resends of one request under a new caller_id each', () => {
    const make = recordMaker();
    const records = [0, 1300, 2900].map((at, attempt) =>
      make({ at, email: 'a@example.com', callerId: `uuid-${attempt}`, status: 429 }),
    );
    const report = checkIntegration(records);
    expect(report.summary.logical_requests).toBe(1);
    expect(findingOf(report, 'caller-id-per-request')?.evidence.count).toBe(1);
  });

  it('passes a stable caller_id, and one shopper among many whose address changed', () => {
    const make = recordMaker();
    const stable = ['a', 'b', 'c'].flatMap((user, index) =>
      [0, 1, 2, 3].map((step) =>
        make({ at: step * 1000, email: `${user}@example.com`, callerId: `203.0.113.${index}` }),
      ),
    );
    const roaming = [0, 1, 2].map((step) =>
      make({ at: step * 1000, email: 'm@example.com', callerId: `198.51.100.${step}` }),
    );
    const report = checkIntegration([...stable, ...roaming]);
    expect(ruleOf(report, 'caller-id-per-request').status).toBe('passed');
  });

  it('passes an address that alternates between IPv4 and IPv6', () => {
    const make = recordMaker();
    const records = [0, 1, 2, 3].map((step) =>
      make({
        at: step * 1000,
        email: 'a@example.com',
        callerId: step % 2 === 0 ? '203.0.113.5' : '2001:db8::5',
      }),
    );
    expect(ruleOf(checkIntegration(records), 'caller-id-per-request').status).toBe('passed');
  });

  it('is not exercised when no end-user sent three requests with a caller_id', () => {
    const make = recordMaker();
    const records = [
      make({ at: 0, email: 'a@example.com', callerId: 'x' }),
      make({ at: 1, email: 'a@example.com', callerId: 'y' }),
    ];
    expect(ruleOf(checkIntegration(records), 'caller-id-per-request')).toMatchObject({
      status: 'not-exercised',
      reason: 'no end-user sent 3 or more requests with a caller_id',
    });
  });
});
