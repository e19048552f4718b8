import { describe, expect, it } from 'vitest';
import {
  findingOf,
  politeShoppers,
  recordMaker,
  ruleOf,
  T0,
} from '../../test/helpers/check-records.js';
import { requestRecord } from '../../test/helpers/request-record.js';
import { checkIntegration } from './check-integration.js';
import { evidenceRequests } from './evidence-requests.js';
import type { RuleId } from './check-report.js';

const RULES: [RuleId, 'error' | 'warn'][] = [
  ['unauthenticated', 'error'],
  ['caller-id-missing', 'error'],
  ['caller-id-wrong-place', 'error'],
  ['caller-id-shared', 'error'],
  ['caller-id-per-request', 'error'],
  ['caller-id-internal-ip', 'warn'],
  ['caller-id-is-email', 'warn'],
  ['retry-before-retry-after', 'error'],
  ['retry-cap-exceeded', 'error'],
  ['retry-cap-possibly-exceeded', 'warn'],
  ['retry-on-client-error', 'error'],
  ['ignores-429', 'error'],
  ['retry-without-backoff', 'warn'],
  ['retry-without-jitter', 'warn'],
];

/** Whether a value is what JSON.stringify writes back unchanged: no Map, undefined, NaN, ... */
function jsonSafe(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(jsonSafe);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.values(value).every((entry) => entry !== undefined && jsonSafe(entry));
  return false;
}

describe('checkIntegration', () => {
  it('lists every rule once, with its id and severity, in catalog order', () => {
    const report = checkIntegration(politeShoppers());
    expect(report.rules.map(({ rule, severity }) => [rule, severity])).toEqual(RULES);
  });

  it('finds nothing in a correct integration with refusals, retries, a wrong code and NAT', () => {
    const report = checkIntegration(politeShoppers({ shoppers: 40, perAddress: 2 }));
    expect(report.findings).toEqual([]);
    expect(report.summary.rate_limited).toBeGreaterThan(10);
    for (const rule of [
      'caller-id-missing',
      'caller-id-shared',
      'caller-id-per-request',
      'retry-before-retry-after',
      'retry-cap-exceeded',
      'retry-cap-possibly-exceeded',
      'retry-on-client-error',
      'ignores-429',
      'retry-without-backoff',
      'retry-without-jitter',
    ] as const)
      expect(ruleOf(report, rule).status).toBe('passed');
  });

  it('reports every rule as not exercised, with a reason, when there is no service request', () => {
    const report = checkIntegration([
      requestRecord({ operation: undefined, path: '/__uas/journal', status: 200 }),
    ]);
    expect(report.findings).toEqual([]);
    for (const rule of report.rules) {
      expect(rule.status).toBe('not-exercised');
      expect(rule.reason).toMatch(/\w/);
    }
    expect(report.summary).toMatchObject({ requests: 0, ignored: 1, span: null });
  });

  it('ignores dev-API and unrouted requests', () => {
    const make = recordMaker();
    const report = checkIntegration([
      make({ at: 0, email: 'a@example.com', callerId: '203.0.113.1' }),
      requestRecord({ id: 90, operation: undefined, path: '/__uas/buckets', client_id: undefined }),
      requestRecord({ id: 91, operation: undefined, path: '/v2/nothing', status: 404 }),
    ]);
    expect(report.summary).toMatchObject({ requests: 1, ignored: 2 });
    expect(report.findings).toEqual([]);
  });

  it('gives the same report whatever the order of the records', () => {
    const make = recordMaker();
    const records = [
      ...politeShoppers({ shoppers: 10, seed: 3 }),
      make({ at: 100, email: 'x@example.com' }),
      make({ at: 200, email: 'x@example.com', status: 429 }),
      make({ at: 300, email: 'x@example.com', status: 429 }),
    ];
    const oldestFirst = checkIntegration(records);
    expect(checkIntegration([...records].reverse())).toEqual(oldestFirst);
    const shuffled = [...records].sort((a, b) => ((a.id * 7919) % 13) - ((b.id * 7919) % 13));
    expect(checkIntegration(shuffled)).toEqual(oldestFirst);
    expect(oldestFirst.findings.length).toBeGreaterThan(0);
  });

  it('returns plain JSON values only', () => {
    const make = recordMaker();
    const report = checkIntegration([
      ...politeShoppers({ shoppers: 6 }),
      make({ at: 0, email: 'a@example.com' }),
      make({ at: 10, email: 'a@example.com', callerId: '10.0.0.1' }),
    ]);
    expect(jsonSafe(report)).toBe(true);
    expect(JSON.parse(JSON.stringify(report))).toStrictEqual(report);
  });

  it('puts errors before warnings', () => {
    const make = recordMaker();
    const report = checkIntegration([
      make({ at: 0, email: 'a@example.com', callerId: '127.0.0.1' }),
      make({ at: 10, email: 'b@example.com' }),
    ]);
    expect(report.findings.map((finding) => [finding.rule, finding.severity])).toEqual([
      ['caller-id-missing', 'error'],
      ['caller-id-internal-ip', 'warn'],
    ]);
  });

  it('counts requests, people, refusals, attempts and retry delays in the summary', () => {
    const make = recordMaker();
    const report = checkIntegration([
      make({ at: 0, email: 'a@example.com', callerId: '203.0.113.1', status: 429 }),
      make({ at: 1300, email: 'a@example.com', callerId: '203.0.113.1' }),
      make({ at: 2000, operation: 'start', email: 'A@example.com', callerId: '203.0.113.1' }),
      make({ at: 3000, operation: 'exists', phone: '+14155550101', callerId: '203.0.113.2' }),
      make({ at: 4000, operation: 'verify', email: 'b@example.com', code: '1', status: 422 }),
    ]);
    expect(report.summary).toEqual({
      requests: 5,
      ignored: 0,
      by_operation: { exists: 3, start: 1, verify: 1 },
      by_status: { '200': 3, '422': 1, '429': 1 },
      end_users: 3,
      caller_ids: 2,
      rate_limited: 1,
      logical_requests: 4,
      retried: 1,
      attempts: { '1': 3, '2': 1 },
      retry_delay_ms: { count: 1, min: 1300, median: 1300, max: 1300 },
      retry_delay_beyond_retry_after_ms: { count: 1, min: 300, median: 300, max: 300 },
      span: {
        from: new Date(T0).toISOString(),
        to: new Date(T0 + 4000).toISOString(),
        duration_ms: 4000,
      },
    });
  });

  it('gives each finding its spec rule, fix and bounded evidence', () => {
    const make = recordMaker();
    const records = Array.from({ length: 12 }, (_, index) =>
      make({ at: index * 10, email: `u${index}@example.com` }),
    );
    const finding = findingOf(checkIntegration(records), 'caller-id-missing');
    expect(finding).toMatchObject({ severity: 'error', evidence: { count: 12 } });
    expect(finding?.spec).toMatch(/§/);
    expect(finding?.fix).toMatch(/caller_id/);
    expect(finding?.message).not.toMatch(/\n/);
    expect(finding?.evidence.examples).toEqual([1, 2, 3, 4, 5]);
    expect(finding?.evidence.values.length).toBeLessThanOrEqual(5);
  });

  it('keeps the requests of each finding themselves: method, path, status, time and fields', () => {
    const make = recordMaker();
    const records = [make({ at: 0, email: 'ann@example.com' }), make({ at: 5, email: 'ben' })];
    const finding = findingOf(checkIntegration(records), 'caller-id-missing');
    expect(finding?.evidence.requests).toEqual([
      {
        id: 1,
        time: new Date(T0).toISOString(),
        method: 'GET',
        path: '/v1/users/exists',
        status: 200,
        fields: { email: 'ann@example.com' },
      },
      expect.objectContaining({ id: 2, time: new Date(T0 + 5).toISOString() }),
    ]);
    // Fields that could not be read are null, so the report stays JSON.
    const unread = { ...records[1]!, fields: undefined };
    expect(evidenceRequests([unread])).toEqual([expect.objectContaining({ id: 2, fields: null })]);
  });

  it('shows the requests a finding names even where ids repeat (instances recording into one file)', () => {
    const make = recordMaker();
    const first = make({ at: 0, email: 'ann@example.com' });
    // Another worker's first request: the same id, another request.
    const other = { ...make({ at: 5, email: 'ben@example.com' }), id: first.id };
    const finding = findingOf(checkIntegration([first, other]), 'caller-id-missing');
    expect(finding?.evidence.examples).toEqual([first.id, first.id]);
    expect(finding?.evidence.requests.map((request) => request.fields)).toEqual([
      { email: 'ann@example.com' },
      { email: 'ben@example.com' },
    ]);
  });

  it('refuses a threshold that is not a number in its range', () => {
    expect(() => checkIntegration([], { maxAttempts: Number.NaN })).toThrow(
      /maxAttempts must be .* got NaN/,
    );
    expect(() => checkIntegration([], { perRequestRatio: 2 })).toThrow(/perRequestRatio/);
  });
});
