import { afterEach, describe, expect, it } from 'vitest';
import {
  checksOf,
  conformInProcess,
  startDriftServer,
  type DriftServer,
} from './conform-helpers.js';

/** `uas conform --exhaust` within a request budget that may not pay for the exhaustion. */
describe('uas conform --exhaust --max-requests', () => {
  let server: DriftServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it.each([8, 9, 10, 11, 12, 13, 14, 16])(
    'never fails limit.caller-exhausted for want of budget: with --max-requests %i it runs, or is skipped with the 6 requests it needs',
    async (budget) => {
      server = await startDriftServer();
      const result = await conformInProcess(
        ['--url', server.url, '--json', '--exhaust', '--max-requests', String(budget)],
        server.clock,
      );
      const report = JSON.parse(result.stdout) as {
        checks: Array<{ id: string; result: string; requests: number; reason: string | null }>;
      };
      const index = report.checks.findIndex((check) => check.id === 'limit.caller-exhausted');
      const check = report.checks[index]!;
      const before = report.checks.slice(0, index).reduce((sum, { requests }) => sum + requests, 0);
      // The demo's caller buckets hold 5: the 429 comes with the 6th request.
      if (budget - before >= 6) expect(check).toMatchObject({ result: 'pass', requests: 6 });
      else
        expect(check).toMatchObject({
          result: 'skip',
          requests: 0,
          reason: `needs 6 requests; ${budget - before} of the budget left (raise --max-requests)`,
        });
      expect(report.checks.filter((entry) => entry.result === 'fail')).toEqual([]);
      expect(server.received()).toBeLessThanOrEqual(budget);
    },
  );

  /** A server that sends no rate-limit fields to the requests of the caller_ids given. */
  const withoutFields = (callers: string[]) =>
    startDriftServer({
      answer: (answer, request) =>
        callers.some(
          (caller) =>
            request.url.includes(`caller_id=uas-conform-r1-${caller}&`) ||
            request.url.endsWith(`caller_id=uas-conform-r1-${caller}`),
        )
          ? {
              ...answer,
              headers: Object.fromEntries(
                Object.entries(answer.headers).filter(([name]) => !name.startsWith('ratelimit')),
              ),
            }
          : answer,
    });

  it('learns the quota from the first answer of the exhaustion when no earlier answer stated it, and is skipped with the count it needs', async () => {
    server = await withoutFields(['a']);
    const result = await conformInProcess(
      ['--url', server.url, '--json', '--exhaust', '--max-requests', '10'],
      server.clock,
    );
    expect(checksOf(result)['limit.caller-exhausted']).toMatchObject({
      result: 'skip',
      requests: 1,
      reason: expect.stringMatching(
        /^needs 6 requests; [1-5] of the budget left \(raise --max-requests\)$/,
      ) as unknown,
    });
  });

  it('is skipped, not failed, when no answer states a quota and the budget ends before a 429', async () => {
    server = await withoutFields(['a', 'e']);
    const result = await conformInProcess(
      ['--url', server.url, '--json', '--exhaust', '--max-requests', '10'],
      server.clock,
    );
    expect(checksOf(result)['limit.caller-exhausted']).toMatchObject({
      result: 'skip',
      reason: expect.stringMatching(
        /^no 429 within the [1-5] requests the budget allowed, and no answer stated a quota/,
      ) as unknown,
    });
  });
});
