import { describe, expect, it } from 'vitest';
import {
  findingOf,
  recordMaker,
  ruleOf,
  unauthenticatedRecord,
} from '../../../test/helpers/check-records.js';
import { checkIntegration } from '../check-integration.js';

describe('unauthenticated', () => {
  it('reports requests refused 401', () => {
    const make = recordMaker();
    const report = checkIntegration([
      make({ at: 0, email: 'a@example.com', callerId: '203.0.113.1' }),
      unauthenticatedRecord(50, 10),
      unauthenticatedRecord(51, 20),
    ]);
    expect(findingOf(report, 'unauthenticated')).toMatchObject({
      severity: 'error',
      message: '2 of 3 requests were refused 401 for a missing or wrong token',
      evidence: { count: 2, examples: [50, 51], values: ['GET /v1/users/exists: 2'] },
    });
    // Nothing of a refused request was read: it is not judged for its caller_id.
    expect(ruleOf(report, 'caller-id-missing').status).toBe('passed');
  });

  it('passes when every request is authenticated', () => {
    const make = recordMaker();
    const report = checkIntegration([make({ at: 0, email: 'a@example.com' })]);
    expect(ruleOf(report, 'unauthenticated').status).toBe('passed');
  });
});
