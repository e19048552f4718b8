import { describe, expect, it } from 'vitest';
import { findingOf, recordMaker, ruleOf } from '../../../test/helpers/check-records.js';
import { checkIntegration } from '../check-integration.js';

const a = { email: 'a@example.com', callerId: '203.0.113.1' };

describe('retry-cap-exceeded', () => {
  it('reports a fourth attempt of one logical request', () => {
    const make = recordMaker();
    const report = checkIntegration(
      [0, 1200, 2600, 4000].map((at) => make({ ...a, at, status: 429, idempotencyKey: 'k-1' })),
    );
    expect(findingOf(report, 'retry-cap-exceeded')).toMatchObject({
      severity: 'error',
      message: '1 logical request made more than 3 attempts (up to 4)',
      evidence: {
        count: 1,
        examples: [4],
        values: ['exists a@example.com: 4 attempts'],
        figures: { most_attempts: 4, reached_cap: 1 },
      },
    });
  });

  it('lists its example values in the order of the requests it shows', () => {
    const make = recordMaker();
    const b = { email: 'b@example.com', callerId: '203.0.113.2' };
    // a starts first but goes past the cap after b does.
    const report = checkIntegration([
      ...[0, 3000, 6000, 9000].map((at) => make({ ...a, at, status: 429, idempotencyKey: 'k-a' })),
      ...[100, 1300, 2700, 4100].map((at) =>
        make({ ...b, at, status: 429, idempotencyKey: 'k-b' }),
      ),
    ]);
    const evidence = findingOf(report, 'retry-cap-exceeded')?.evidence;
    expect(evidence?.requests.map((request) => request.fields?.email)).toEqual([
      'b@example.com',
      'a@example.com',
    ]);
    expect(evidence?.values).toEqual([
      'exists b@example.com: 4 attempts',
      'exists a@example.com: 4 attempts',
    ]);
  });

  it('counts resends under a new caller_id as attempts of the same request', () => {
    const make = recordMaker();
    const report = checkIntegration(
      [0, 1200, 2600, 4000].map((at, index) =>
        make({
          email: 'a@example.com',
          callerId: `id-${index}`,
          at,
          status: 429,
          retryAttempt: String(index),
        }),
      ),
    );
    expect(findingOf(report, 'retry-cap-exceeded')?.evidence.figures.most_attempts).toBe(4);
  });

  it('is sure of a fourth attempt sent before the Retry-After of the third was over', () => {
    const make = recordMaker();
    const report = checkIntegration(
      [0, 300, 600, 900].map((at) => make({ ...a, at, status: 429, retryAfter: 1 })),
    );
    expect(findingOf(report, 'retry-cap-exceeded')?.evidence.figures.most_attempts).toBe(4);
    expect(ruleOf(report, 'retry-cap-possibly-exceeded').status).toBe('passed');
  });

  it('warns, rather than errs, of a fourth identical request well after a full Retry-After without Idempotency-Key or Retry-Attempt', () => {
    const make = recordMaker();
    const report = checkIntegration(
      [0, 3000, 6400, 9000].map((at) => make({ ...a, at, status: 429 })),
    );
    expect(ruleOf(report, 'retry-cap-exceeded').status).toBe('passed');
    expect(findingOf(report, 'retry-cap-possibly-exceeded')).toMatchObject({
      severity: 'warn',
      message:
        '1 request sent identically more than 3 times (up to 4), each time after a full Retry-After and without Idempotency-Key or Retry-Attempt: possibly new requests of the user, possibly attempts past the cap',
      evidence: { count: 1, examples: [4], values: ['exists a@example.com: 4 attempts'] },
    });
  });

  it('is sure of a fourth attempt timed on Retry-After, as axios-retry sends them (4 attempts, each waiting Retry-After exactly)', () => {
    const make = recordMaker();
    // Each resend arrives 2 to 25 ms after the Retry-After it was given ran out (1 to 5 s).
    const waits = [
      [3, 2],
      [1, 25],
      [5, 11],
    ] as const;
    let at = 0;
    const records = [make({ ...a, at, status: 429, retryAfter: 2 })];
    for (const [index, [next, late]] of waits.entries()) {
      at += (records[index]!.retry_after as number) * 1000 + late;
      records.push(make({ ...a, at, status: 429, retryAfter: next }));
    }
    const report = checkIntegration(records);
    expect(findingOf(report, 'retry-cap-exceeded')).toMatchObject({
      severity: 'error',
      evidence: { figures: { most_attempts: 4 } },
    });
    expect(ruleOf(report, 'retry-cap-possibly-exceeded').status).toBe('passed');
    // Half a second late or more, it may be the shopper asking anew: only a warning.
    const later = records.map((record, index) => ({ ...record, at: record.at + index * 600 }));
    const relaxed = checkIntegration(later);
    expect(ruleOf(relaxed, 'retry-cap-exceeded').status).toBe('passed');
    expect(findingOf(relaxed, 'retry-cap-possibly-exceeded')?.severity).toBe('warn');
  });

  it('takes identical requests with different Idempotency-Keys, or a Retry-Attempt back at 0, for new requests', () => {
    const make = recordMaker();
    const keyed = checkIntegration(
      [0, 1200, 2600, 4000].map((at, index) =>
        make({ ...a, at, status: 429, idempotencyKey: `k-${index}` }),
      ),
    );
    expect(keyed.summary.logical_requests).toBe(4);
    const counted = checkIntegration(
      [0, 1200, 2600, 4000].map((at, index) =>
        make({ ...a, at, status: 429, retryAttempt: String(index % 3) }),
      ),
    );
    expect(counted.summary.attempts).toEqual({ 1: 1, 3: 1 });
    for (const report of [keyed, counted]) {
      expect(report.findings.map((finding) => finding.rule)).not.toContain('retry-cap-exceeded');
      expect(report.findings.map((finding) => finding.rule)).not.toContain(
        'retry-cap-possibly-exceeded',
      );
    }
  });

  it('passes three attempts refused in a row', () => {
    const make = recordMaker();
    const report = checkIntegration([0, 1200, 2600].map((at) => make({ ...a, at, status: 429 })));
    expect(ruleOf(report, 'retry-cap-exceeded').status).toBe('passed');
  });

  it('takes the same request long after the last refusal for a new one', () => {
    const make = recordMaker();
    const report = checkIntegration([
      ...[0, 1200, 2600].map((at) => make({ ...a, at, status: 429 })),
      make({ ...a, at: 2600 + 1000 + 30_001 }),
    ]);
    expect(report.summary.logical_requests).toBe(2);
    expect(ruleOf(report, 'retry-cap-exceeded').status).toBe('passed');
  });

  it('is not exercised until an attempt at the cap is refused', () => {
    const make = recordMaker();
    const report = checkIntegration([make({ ...a, at: 0, status: 429 }), make({ ...a, at: 1500 })]);
    expect(ruleOf(report, 'retry-cap-exceeded')).toMatchObject({
      status: 'not-exercised',
      reason: 'no request was refused 3 times in a row, so the cap was never reached',
    });
  });
});
