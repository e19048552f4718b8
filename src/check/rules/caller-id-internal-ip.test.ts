import { describe, expect, it } from 'vitest';
import { findingOf, recordMaker, ruleOf } from '../../../test/helpers/check-records.js';
import { checkIntegration } from '../check-integration.js';

const withCallerIds = (callerIds: string[]) => {
  const make = recordMaker();
  return callerIds.map((callerId, index) =>
    make({ at: index * 10, email: `u${index}@example.com`, callerId }),
  );
};

describe('caller-id-internal-ip', () => {
  it('warns of loopback, private, link-local, CGNAT and unique-local caller_ids', () => {
    const report = checkIntegration(
      withCallerIds(['127.0.0.1', '10.0.0.1', '::1', '100.64.0.1', 'fd00::1', 'fe80::1']),
    );
    expect(findingOf(report, 'caller-id-internal-ip')).toMatchObject({
      severity: 'warn',
      message:
        '6 requests used an internal address as caller_id (6 values, such as "127.0.0.1", loopback)',
      evidence: {
        count: 6,
        values: [
          '127.0.0.1 (loopback)',
          '10.0.0.1 (private)',
          '::1 (loopback)',
          '100.64.0.1 (cgnat)',
          'fd00::1 (unique-local)',
        ],
      },
    });
  });

  it('sees through IPv4-mapped IPv6, brackets and ports', () => {
    const report = checkIntegration(withCallerIds(['::ffff:10.0.0.1', '[::1]', '[::1]:8080']));
    expect(findingOf(report, 'caller-id-internal-ip')?.evidence.values).toEqual([
      '::ffff:10.0.0.1 (private)',
      '[::1] (loopback)',
      '[::1]:8080 (loopback)',
    ]);
  });

  it('passes public addresses and values that are not addresses, without failing on junk', () => {
    const report = checkIntegration(
      withCallerIds([
        '203.0.113.7',
        '2a00:1450:4001::1',
        '100.128.0.1',
        'sess_8f2c',
        '[::1',
        '::1]',
        '[]',
        '999.1.1.1',
        '10.1',
        '[fe80::1%25eth0]:x',
      ]),
    );
    expect(ruleOf(report, 'caller-id-internal-ip').status).toBe('passed');
  });

  it('is not exercised without caller_ids', () => {
    const make = recordMaker();
    const report = checkIntegration([make({ at: 0, email: 'a@example.com' })]);
    expect(ruleOf(report, 'caller-id-internal-ip').status).toBe('not-exercised');
  });
});
