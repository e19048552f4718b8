import { describe, expect, it } from 'vitest';
import {
  findingOf,
  recordMaker,
  ruleOf,
  unauthenticatedRecord,
} from '../../../test/helpers/check-records.js';
import { requestRecord } from '../../../test/helpers/request-record.js';
import { checkIntegration } from '../check-integration.js';

describe('caller-id-missing', () => {
  it('reports requests without caller_id, by operation', () => {
    const make = recordMaker();
    const report = checkIntegration([
      make({ at: 0, email: 'a@example.com', callerId: '203.0.113.1' }),
      make({ at: 10, email: 'b@example.com' }),
      make({ at: 20, operation: 'start', email: 'b@example.com' }),
    ]);
    expect(findingOf(report, 'caller-id-missing')).toMatchObject({
      severity: 'error',
      message: '2 requests of 3 sent no caller_id, so they shared the client bucket',
      evidence: { count: 2, examples: [2, 3], values: ['exists: 1', 'start: 1'] },
    });
  });

  it('passes when every request carries a caller_id', () => {
    const make = recordMaker();
    const report = checkIntegration([
      make({ at: 0, email: 'a@example.com', callerId: '203.0.113.1' }),
      make({ at: 10, operation: 'start', email: 'a@example.com', callerId: '203.0.113.1' }),
    ]);
    expect(ruleOf(report, 'caller-id-missing').status).toBe('passed');
  });

  it('counts an empty caller_id as missing', () => {
    const make = recordMaker();
    const report = checkIntegration([make({ at: 0, email: 'a@example.com', callerId: '' })]);
    expect(findingOf(report, 'caller-id-missing')?.evidence.count).toBe(1);
  });

  it('says a caller_id was sent, but not as a text, where it was: not that none was', () => {
    const make = recordMaker();
    const refused = (id: number, callerId: unknown) =>
      requestRecord({
        id,
        at: id * 10,
        method: 'POST',
        operation: 'start',
        email: 'a@example.com',
        fields: { email: 'a@example.com', caller_id: callerId },
        status: 400,
        outcome: 'invalid',
      });
    const report = checkIntegration([
      make({ at: 0, email: 'b@example.com' }),
      refused(11, 12345),
      refused(12, null),
    ]);
    expect(findingOf(report, 'caller-id-missing')).toMatchObject({
      message:
        '3 requests of 3 sent no caller_id the service could use: 1 none, so it used the client bucket; 2 a caller_id that is empty or not a text (such as 12345)',
      evidence: { count: 3 },
    });
  });

  it('leaves a caller_id sent in the wrong place to caller-id-wrong-place', () => {
    const make = recordMaker();
    const report = checkIntegration([
      make({
        at: 0,
        email: 'a@example.com',
        misplaced: [{ place: 'header', name: 'x-caller-id', value: '203.0.113.1' }],
      }),
    ]);
    expect(ruleOf(report, 'caller-id-missing').status).toBe('passed');
    expect(ruleOf(report, 'caller-id-wrong-place').status).toBe('failed');
  });

  it('does not judge requests whose fields were never read', () => {
    const report = checkIntegration([
      unauthenticatedRecord(1, 0),
      requestRecord({ id: 2, status: 400, outcome: 'invalid', fields: undefined }),
    ]);
    expect(ruleOf(report, 'caller-id-missing')).toMatchObject({ status: 'not-exercised' });
  });
});
