import { describe, expect, it } from 'vitest';
import { recordMaker, ruleOf, unauthenticatedRecord } from '../../test/helpers/check-records.js';
import { certainRuns, groupLogicalRequests, retryWaits } from './logical-requests.js';
import { checkIntegration } from './check-integration.js';

const a = { email: 'a@example.com', callerId: '203.0.113.1' };
const ids = (groups: ReturnType<typeof groupLogicalRequests>) =>
  groups.map(({ attempts }) => attempts.map((record) => record.id));

describe('groupLogicalRequests', () => {
  it('groups a 429 with its resend, even under a new caller_id', () => {
    const make = recordMaker();
    const records = [
      make({ ...a, at: 0, status: 429 }),
      make({ ...a, at: 1300, callerId: 'another', status: 503 }),
      make({ ...a, at: 2500 }),
    ];
    expect(ids(groupLogicalRequests(records, 30_000))).toEqual([[1, 2, 3]]);
  });

  it('takes a retyped code for another request', () => {
    const make = recordMaker();
    const verify = { ...a, operation: 'verify' } as const;
    const records = [
      make({ ...verify, code: '111111', at: 0, status: 429 }),
      make({ ...verify, code: '111112', at: 1200 }),
    ];
    expect(ids(groupLogicalRequests(records, 30_000))).toEqual([[1], [2]]);
  });

  it('takes the same request after an answer that was not 429 or 503 for a new one', () => {
    const make = recordMaker();
    const records = [
      make({ ...a, at: 0 }),
      make({ ...a, at: 10 }),
      make({ ...a, at: 20, status: 404 }),
      make({ ...a, at: 30 }),
    ];
    expect(ids(groupLogicalRequests(records, 30_000))).toEqual([[1], [2], [3], [4]]);
  });

  it('counts the window from the end of the Retry-After', () => {
    const make = recordMaker();
    const records = [
      make({ ...a, at: 0, status: 429, retryAfter: 40 }),
      make({ ...a, at: 45_000, status: 429, retryAfter: 1 }),
      make({ ...a, at: 45_000 + 1000 + 30_001 }),
    ];
    expect(ids(groupLogicalRequests(records, 30_000))).toEqual([[1, 2], [3]]);
  });

  it('keeps requests of different clients apart', () => {
    const make = recordMaker();
    const records = [
      make({ ...a, at: 0, status: 429 }),
      make({ ...a, at: 1200, clientId: 'other' }),
    ];
    expect(ids(groupLogicalRequests(records, 30_000))).toEqual([[1], [2]]);
  });

  it('groups by Idempotency-Key when one is sent: the same key is one request, however late', () => {
    const make = recordMaker();
    const records = [
      make({ ...a, at: 0, status: 429, idempotencyKey: 'k-1' }),
      make({ ...a, at: 100, status: 429, idempotencyKey: 'k-2' }),
      make({ ...a, at: 1200, idempotencyKey: 'k-1' }),
      make({ ...a, at: 120_000, idempotencyKey: 'k-2' }),
    ];
    const groups = groupLogicalRequests(records, 30_000);
    expect(ids(groups)).toEqual([
      [1, 3],
      [2, 4],
    ]);
    expect(groups.map(({ links }) => links)).toEqual([['certain'], ['certain']]);
  });

  it('follows Retry-Attempt: certain when it goes up, a new request when it does not', () => {
    const make = recordMaker();
    const records = [
      make({ ...a, at: 0, status: 429, retryAttempt: '0' }),
      make({ ...a, at: 1200, status: 429, retryAttempt: '1' }),
      make({ ...a, at: 1300, status: 429, retryAttempt: '1' }),
      make({ ...a, at: 60_000, retryAttempt: '2' }),
    ];
    const groups = groupLogicalRequests(records, 30_000);
    expect(ids(groups)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(groups.map(({ links }) => links)).toEqual([['certain'], ['certain']]);
  });

  it('follows each of identical requests sent at once by its Retry-Attempt, to the one whose Retry-After is over', () => {
    const make = recordMaker();
    // Two tabs of one shopper: the first told 1 s, the second 2 s; each resends after its own.
    const records = [
      make({ ...a, at: 0, status: 429, retryAfter: 1, retryAttempt: '0' }),
      make({ ...a, at: 5, status: 429, retryAfter: 2, retryAttempt: '0' }),
      make({ ...a, at: 1200, status: 429, retryAfter: 1, retryAttempt: '1' }),
      make({ ...a, at: 2300, status: 429, retryAfter: 1, retryAttempt: '2' }),
      make({ ...a, at: 2400, status: 429, retryAfter: 1, retryAttempt: '1' }),
      make({ ...a, at: 3600, retryAttempt: '2' }),
    ];
    expect(ids(groupLogicalRequests(records, 30_000))).toEqual([
      [1, 3, 4],
      [2, 5, 6],
    ]);
    const early = checkIntegration(records);
    expect(ruleOf(early, 'retry-before-retry-after').status).toBe('passed');
  });

  it('follows the attempt just before first, so that a tab beside does not hide a fourth attempt', () => {
    const make = recordMaker();
    const records = [
      make({ ...a, at: 0, status: 429, retryAfter: 1, retryAttempt: '0' }),
      make({ ...a, at: 5, status: 429, retryAfter: 2, retryAttempt: '0' }),
      make({ ...a, at: 1100, retryAttempt: '1' }),
      make({ ...a, at: 2100, status: 429, retryAfter: 2, retryAttempt: '1' }),
      make({ ...a, at: 4200, status: 429, retryAfter: 2, retryAttempt: '2' }),
      make({ ...a, at: 4300, status: 429, retryAfter: 2, retryAttempt: '3' }),
    ];
    expect(ids(groupLogicalRequests(records, 30_000))).toEqual([
      [1, 3],
      [2, 4, 5, 6],
    ]);
    expect(ruleOf(checkIntegration(records), 'retry-cap-exceeded').status).toBe('failed');
  });

  it('is sure of a resend sent before Retry-After was over or just after it, and only suspects one sent well after', () => {
    const make = recordMaker();
    const records = [
      make({ ...a, at: 0, status: 429, retryAfter: 2 }),
      make({ ...a, at: 1000, status: 429, retryAfter: 2 }),
      make({ ...a, at: 3700, status: 429, retryAfter: 2 }),
      make({ ...a, at: 3800 }),
    ];
    const timed = [...records.slice(0, 2), make({ ...a, at: 3490, status: 429, retryAfter: 2 })];
    expect(groupLogicalRequests(timed, 30_000)[0]?.links).toEqual(['certain', 'certain']);
    const [request] = groupLogicalRequests(records, 30_000);
    expect(request?.links).toEqual(['certain', 'possible', 'certain']);
    expect(certainRuns(request!).map((run) => run.map((record) => record.id))).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('never takes requests whose fields were not read for resends', () => {
    const records = [unauthenticatedRecord(1, 0), unauthenticatedRecord(2, 10)];
    expect(ids(groupLogicalRequests(records, 30_000))).toEqual([[1], [2]]);
  });
});

describe('retryWaits', () => {
  it('gives each wait and the backoff beyond Retry-After', () => {
    const make = recordMaker();
    const [request] = groupLogicalRequests(
      [
        make({ ...a, at: 0, status: 429, retryAfter: 1 }),
        make({ ...a, at: 1250, status: 429, retryAfter: 2 }),
        make({ ...a, at: 3950 }),
      ],
      30_000,
    );
    expect(
      retryWaits(request!).map(({ index, waitMs, backoffMs }) => ({ index, waitMs, backoffMs })),
    ).toEqual([
      { index: 1, waitMs: 1250, backoffMs: 250 },
      { index: 2, waitMs: 2700, backoffMs: 700 },
    ]);
  });
});
