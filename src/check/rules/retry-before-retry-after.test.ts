import { describe, expect, it } from 'vitest';
import { findingOf, recordMaker, ruleOf } from '../../../test/helpers/check-records.js';
import { checkIntegration } from '../check-integration.js';

const a = { email: 'a@example.com', callerId: '203.0.113.1' };

describe('retry-before-retry-after', () => {
  it('reports a resend earlier than the Retry-After of its 429', () => {
    const make = recordMaker();
    const report = checkIntegration([
      make({ ...a, at: 0, status: 429, retryAfter: 2 }),
      make({ ...a, at: 500 }),
    ]);
    expect(findingOf(report, 'retry-before-retry-after')).toMatchObject({
      severity: 'error',
      message: '1 resend of 1 after a 429 came before its Retry-After (up to 1500 ms early)',
      evidence: {
        count: 1,
        examples: [2],
        values: ['resent after 500 ms; Retry-After 2 s'],
        figures: { resends_after_429: 1, most_early_ms: 1500 },
      },
    });
  });

  it('holds no resend to a 429 that did not reach its client whole (uas serve --upstream)', () => {
    const make = recordMaker();
    // Pipelined behind an answer the real service cut short: uas closed the connection, and the
    // client, which got nothing of the 429, sent the request again at once.
    const cut = make({ ...a, at: 0, status: 429, retryAfter: 30 });
    cut.upstream = {
      answered_by: 'upstream',
      local: undefined,
      headers: ['retry-after'],
      policy: undefined,
      retry_after_text: '30',
      problem_type: undefined,
      bucket: undefined,
      cut: 'upstream',
    };
    const report = checkIntegration([cut, make({ ...a, at: 1500 })]);
    expect(ruleOf(report, 'retry-before-retry-after').status).not.toBe('failed');
  });

  it('holds each resend to the Retry-After its own 429 carried, as chaos varies them', () => {
    const make = recordMaker();
    // A fixed 1.2 s between attempts: enough after a 1 s Retry-After, too early after 3 s.
    const report = checkIntegration([
      make({ ...a, at: 0, status: 429, retryAfter: 1 }),
      make({ ...a, at: 1200, status: 429, retryAfter: 3 }),
      make({ ...a, at: 2400 }),
    ]);
    expect(findingOf(report, 'retry-before-retry-after')).toMatchObject({
      message: '1 resend of 2 after a 429 came before its Retry-After (up to 1800 ms early)',
      evidence: { examples: [3], values: ['resent after 1200 ms; Retry-After 3 s'] },
    });
  });

  it('says a resend days early in days, where milliseconds are past reading', () => {
    const make = recordMaker();
    const report = checkIntegration([
      make({ ...a, at: 0, status: 429, retryAfter: 200_000 }),
      make({ ...a, at: 1000 }),
    ]);
    expect(findingOf(report, 'retry-before-retry-after')).toMatchObject({
      message: '1 resend of 1 after a 429 came before its Retry-After (up to 2 d 7 h early)',
      evidence: { figures: { most_early_ms: 199_999_000 } },
    });
  });

  it('says each long wait in units as well, not in six-digit milliseconds', () => {
    const make = recordMaker();
    const report = checkIntegration([
      make({ ...a, at: 0, status: 429, retryAfter: 1_000_000_000_000 }),
      make({ ...a, at: 302_080 }),
    ]);
    expect(findingOf(report, 'retry-before-retry-after')).toMatchObject({
      evidence: { values: ['resent after 5 min 2 s; Retry-After 1000000000000 s (31,688 years)'] },
    });
  });

  it('allows a little timer slack, and no more', () => {
    const make = recordMaker();
    const slack = checkIntegration([make({ ...a, at: 0, status: 429 }), make({ ...a, at: 960 })]);
    expect(ruleOf(slack, 'retry-before-retry-after').status).toBe('passed');
    const early = checkIntegration([
      make({ ...a, at: 10_000, status: 429 }),
      make({ ...a, at: 10_940 }),
    ]);
    expect(ruleOf(early, 'retry-before-retry-after').status).toBe('failed');
  });

  it('passes a 429 that was never resent', () => {
    const make = recordMaker();
    const report = checkIntegration([make({ ...a, at: 0, status: 429 })]);
    expect(ruleOf(report, 'retry-before-retry-after').status).toBe('passed');
  });

  it('is not exercised without a 429 carrying Retry-After', () => {
    const make = recordMaker();
    const none = checkIntegration([make({ ...a, at: 0 })]);
    expect(ruleOf(none, 'retry-before-retry-after')).toMatchObject({
      status: 'not-exercised',
      reason: 'no 429 with a Retry-After was answered',
    });
    const absent = checkIntegration([
      make({ ...a, at: 0, status: 429, retryAfter: undefined }),
      make({ ...a, at: 10 }),
    ]);
    expect(ruleOf(absent, 'retry-before-retry-after').status).toBe('not-exercised');
  });
});
