import { describe, expect, it } from 'vitest';
import { findingOf, recordMaker, ruleOf } from '../../../test/helpers/check-records.js';
import { checkIntegration } from '../check-integration.js';

const make = recordMaker();
const users = (count: number, callerId: (index: number) => string, clientId = 'demo') =>
  Array.from({ length: count }, (_, index) =>
    make({
      at: index * 100,
      email: `user${index}@example.com`,
      callerId: callerId(index),
      clientId,
    }),
  );

describe('caller-id-shared', () => {
  it('reports one caller_id used by more than three end-users', () => {
    const report = checkIntegration(users(5, () => 'checkout-backend'));
    expect(findingOf(report, 'caller-id-shared')).toMatchObject({
      severity: 'error',
      message: '1 caller_id value served more than 3 end-users each; "checkout-backend" served 5',
      evidence: {
        count: 1,
        values: ['checkout-backend (5 end-users)'],
        figures: { most_end_users: 5 },
      },
    });
  });

  it('quotes a caller_id in its evidence when blanks at its ends would hide it', () => {
    for (const [value, shown] of [
      ['   ', '"   " (5 end-users)'],
      ['shop ', '"shop " (5 end-users)'],
      ['a b', 'a b (5 end-users)'],
    ]) {
      const report = checkIntegration(users(5, () => value!));
      expect(findingOf(report, 'caller-id-shared')?.evidence.values, value).toEqual([shown]);
    }
  });

  it('accepts two shoppers behind one public address (NAT)', () => {
    // Six shoppers, in pairs behind three addresses: enough people to judge, no sharing.
    const report = checkIntegration(users(6, (index) => `203.0.113.${index >> 1}`));
    expect(ruleOf(report, 'caller-id-shared').status).toBe('passed');
    expect(report.findings).toEqual([]);
  });

  it('counts one end-user once whatever the case of the e-mail', () => {
    const records = [
      'A@example.com',
      'a@example.com',
      'a@EXAMPLE.com',
      'b@example.com',
      'c@example.com',
    ].map((email, index) => make({ at: index, email, callerId: 'shared' }));
    const report = checkIntegration(records);
    expect(ruleOf(report, 'caller-id-shared').status).toBe('not-exercised');
  });

  it('scopes caller_ids to the client, like the service', () => {
    const report = checkIntegration([
      ...users(3, () => '203.0.113.9', 'demo'),
      ...users(3, () => '203.0.113.9', 'other'),
    ]);
    expect(findingOf(report, 'caller-id-shared')).toBeUndefined();
  });

  it('is not exercised when no client had more end-users than the threshold', () => {
    const report = checkIntegration(users(3, () => 'static'));
    expect(ruleOf(report, 'caller-id-shared')).toEqual({
      rule: 'caller-id-shared',
      severity: 'error',
      status: 'not-exercised',
      reason: 'at most 3 end-users of one client sent a caller_id; sharing shows only above 3',
    });
  });

  it('takes its threshold from the options', () => {
    const report = checkIntegration(
      users(3, () => 'static'),
      { sharedCallerIdMaxEndUsers: 2 },
    );
    expect(findingOf(report, 'caller-id-shared')?.evidence.figures).toEqual({ most_end_users: 3 });
  });
});
