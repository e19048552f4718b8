import { describe, expect, it } from 'vitest';
import { judgeRateLimitFields } from './rate-limit-fields.js';

const from = (headers: Record<string, string>) => (name: string) => headers[name.toLowerCase()];

describe('judgeRateLimitFields', () => {
  it('reads well-formed draft-10 fields: the policy, what is left and the quota', () => {
    expect(
      judgeRateLimitFields(
        'draft-10',
        from({ ratelimit: '"caller";r=4;t=1', 'ratelimit-policy': '"caller";q=5;w=5' }),
      ),
    ).toEqual({ reading: { policy: 'caller', remaining: 4, limit: 5 }, problems: [] });
  });

  it('names each malformed or inconsistent draft-10 field', () => {
    expect(judgeRateLimitFields('draft-10', from({})).problems).toEqual([
      'RateLimit is missing',
      'RateLimit-Policy is missing',
    ]);
    expect(
      judgeRateLimitFields(
        'draft-10',
        from({ ratelimit: '"caller";r=7', 'ratelimit-policy': '"caller";q=5;w=0' }),
      ).problems,
    ).toEqual([
      'RateLimit-Policy "\\"caller\\";q=5;w=0": w must be a whole number of seconds above zero (got 0)',
      'RateLimit says r=7 left of a quota of q=5',
    ]);
    expect(
      judgeRateLimitFields(
        'draft-10',
        from({ ratelimit: '"client";r=1;t=1', 'ratelimit-policy': '"caller";q=5' }),
      ).problems,
    ).toEqual([
      'RateLimit names policy "client", which RateLimit-Policy "\\"caller\\";q=5" does not define',
    ]);
    expect(
      judgeRateLimitFields('draft-10', from({ ratelimit: 'r=1;;', 'ratelimit-policy': '"a";q=1' }))
        .problems[0],
    ).toMatch(/^RateLimit "r=1;;" is not a Structured Field List: /);
  });

  it('reads the draft-7 dictionary, the draft-6 fields and X-RateLimit-*', () => {
    expect(
      judgeRateLimitFields(
        'draft-7',
        from({ ratelimit: 'limit=5, remaining=2, reset=1', 'ratelimit-policy': '5;w=5' }),
      ),
    ).toEqual({ reading: { policy: undefined, remaining: 2, limit: 5 }, problems: [] });
    expect(
      judgeRateLimitFields(
        'draft-6',
        from({ 'ratelimit-limit': '5', 'ratelimit-remaining': '6', 'ratelimit-reset': '1' }),
      ).problems,
    ).toEqual(['RateLimit-Remaining 6 is above RateLimit-Limit 5']);
    expect(
      judgeRateLimitFields(
        'x-ratelimit',
        from({ 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': 'two' }),
      ).problems,
    ).toEqual([
      'X-RateLimit-Remaining "two" must be a whole number',
      'X-RateLimit-Reset is missing',
    ]);
  });
});
