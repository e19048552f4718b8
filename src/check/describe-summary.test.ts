import { describe, expect, it } from 'vitest';
import type { CheckSummary } from './check-report.js';
import { describeSummary } from './describe-summary.js';

/** A summary of two requests of one end-user, `ms` apart. */
function summary(ms: number): CheckSummary {
  return {
    requests: 2,
    ignored: 0,
    by_operation: { exists: 2 },
    by_status: { '200': 2 },
    end_users: 1,
    caller_ids: 1,
    rate_limited: 0,
    logical_requests: 2,
    retried: 0,
    attempts: { '1': 2 },
    retry_delay_ms: null,
    retry_delay_beyond_retry_after_ms: null,
    span: { from: '2026-01-01T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z', duration_ms: ms },
  };
}

describe('describeSummary', () => {
  it('says a span under a minute to a tenth of a second', () => {
    expect(describeSummary(summary(22_345))).toMatch(/ over 22\.3 s$/);
  });

  it('says a long span of a recording for a person, not in millions of seconds', () => {
    expect(describeSummary(summary(125_000))).toMatch(/ over 2 min 5 s$/);
    expect(describeSummary(summary(4 * 365.25 * 86_400_000))).toMatch(/ over 4 years$/);
  });
});
