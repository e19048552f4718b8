import { describe, expect, it } from 'vitest';
import { describeRateLimit, readRateLimit } from './rate-limit-state.js';

describe('readRateLimit', () => {
  it('reads draft-10 structured fields and the uas bucket', () => {
    const state = readRateLimit(
      new Headers({
        'ratelimit-policy': '"caller";q=5;w=5',
        ratelimit: '"caller";r=2;t=1',
        'uas-bucket': 'caller:demo:x',
      }),
    );
    expect(state).toEqual({
      bucket: 'caller:demo:x',
      policy: 'caller',
      limit: 5,
      remaining: 2,
      resetSeconds: 1,
      windowSeconds: 5,
      style: 'draft-10',
    });
    expect(describeRateLimit(state!)).toBe('caller bucket: 2 of 5 left, next token in 1 s');
  });

  it('reads draft-7, draft-6 and X-RateLimit forms', () => {
    expect(
      readRateLimit(
        new Headers({ ratelimit: 'limit=20, remaining=3, reset=1', 'ratelimit-policy': '20;w=2' }),
      ),
    ).toMatchObject({
      limit: 20,
      remaining: 3,
      resetSeconds: 1,
      windowSeconds: 2,
      style: 'draft-7',
    });
    expect(
      readRateLimit(
        new Headers({
          'ratelimit-limit': '20',
          'ratelimit-remaining': '4',
          'ratelimit-reset': '0',
        }),
      ),
    ).toMatchObject({ limit: 20, remaining: 4, resetSeconds: 0, style: 'draft-6' });
    expect(
      readRateLimit(
        new Headers({
          'x-ratelimit-limit': '5',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': '3',
        }),
      ),
    ).toMatchObject({ limit: 5, remaining: 0, resetSeconds: 3, style: 'x-ratelimit' });
    expect(readRateLimit(new Headers())).toBeUndefined();
  });
});
