import { describe, expect, it } from 'vitest';
import { findingOf, recordMaker, ruleOf } from '../../../test/helpers/check-records.js';
import { checkIntegration } from '../check-integration.js';

describe('caller-id-wrong-place', () => {
  it('names a header, the query of a POST, the body of the GET and another spelling', () => {
    const make = recordMaker();
    const report = checkIntegration([
      make({
        at: 0,
        email: 'a@example.com',
        misplaced: [{ place: 'header', name: 'x-caller-id', value: '203.0.113.1' }],
      }),
      make({
        at: 10,
        operation: 'start',
        email: 'a@example.com',
        misplaced: [{ place: 'query', name: 'caller_id', value: '203.0.113.1' }],
      }),
      make({
        at: 20,
        email: 'a@example.com',
        misplaced: [{ place: 'body', name: 'caller_id', value: '203.0.113.1' }],
      }),
      make({
        at: 30,
        operation: 'start',
        email: 'a@example.com',
        callerId: '203.0.113.1',
        misplaced: [{ place: 'body', name: 'callerId', value: '203.0.113.1' }],
      }),
    ]);
    const finding = findingOf(report, 'caller-id-wrong-place');
    expect(finding).toMatchObject({ severity: 'error', evidence: { count: 4 } });
    expect(finding?.message).toMatch(/^4 requests sent a caller_id where the service ignores it/);
    expect(finding?.message).toMatch(/3 of them therefore used the client bucket/);
    expect(finding?.evidence.values).toEqual([
      'header x-caller-id = "203.0.113.1"',
      'query parameter caller_id of a POST = "203.0.113.1"',
      'body field caller_id of a GET = "203.0.113.1"',
      'body field callerId of a POST = "203.0.113.1"',
    ]);
  });

  it('passes when every caller_id is where the service reads it', () => {
    const make = recordMaker();
    const report = checkIntegration([
      make({ at: 0, email: 'a@example.com', callerId: '203.0.113.1' }),
    ]);
    expect(ruleOf(report, 'caller-id-wrong-place').status).toBe('passed');
  });
});
