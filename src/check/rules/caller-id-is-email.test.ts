import { describe, expect, it } from 'vitest';
import { findingOf, recordMaker, ruleOf } from '../../../test/helpers/check-records.js';
import { checkIntegration } from '../check-integration.js';

describe('caller-id-is-email', () => {
  it('warns of a caller_id equal to the e-mail, whatever its case', () => {
    const make = recordMaker();
    const report = checkIntegration([
      make({ at: 0, email: 'Alice@Example.com', callerId: 'alice@example.com' }),
      make({ at: 10, email: 'bob@example.com', callerId: '203.0.113.2' }),
    ]);
    expect(findingOf(report, 'caller-id-is-email')).toMatchObject({
      severity: 'warn',
      message: '1 request of 2 used the end-user’s e-mail or phone number as caller_id',
      evidence: { count: 1, examples: [1], values: ['alice@example.com'] },
    });
  });

  it('warns of a caller_id equal to the phone number of an exists by phone', () => {
    const make = recordMaker();
    const report = checkIntegration([
      make({ at: 0, phone: '+14155550101', callerId: '+14155550101' }),
    ]);
    expect(findingOf(report, 'caller-id-is-email')?.evidence.count).toBe(1);
  });

  it('passes other caller_ids', () => {
    const make = recordMaker();
    const report = checkIntegration([
      make({ at: 0, email: 'alice@example.com', callerId: 'alice' }),
      make({ at: 0, phone: '+14155550101', callerId: '203.0.113.1' }),
    ]);
    expect(ruleOf(report, 'caller-id-is-email').status).toBe('passed');
  });
});
