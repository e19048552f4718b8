import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '../core/time/random.js';
import { decideRetry, RETRY_DEFAULTS } from './retry-policy.js';

const fixed = (value: number) => ({ next: () => value });

describe('decideRetry', () => {
  it('waits Retry-After plus full jitter of a doubling backoff', () => {
    const at = (attempt: number, random: number) =>
      decideRetry(
        { kind: 'status', status: 429, retryAfterMs: 1000 },
        attempt,
        true,
        { ...RETRY_DEFAULTS, maxAttempts: 5 },
        fixed(random),
      );
    expect(at(1, 0)).toEqual({ retry: true, delayMs: 1000 });
    expect(at(1, 0.5)).toEqual({ retry: true, delayMs: 1250 });
    expect(at(2, 0.5)).toEqual({ retry: true, delayMs: 1500 });
    expect(at(3, 0.999)).toEqual({ retry: true, delayMs: 1000 + 0.999 * 2000 });
  });

  it('never waits less than Retry-After, whatever the jitter', () => {
    const random = createSeededRandom(3);
    for (let index = 0; index < 100; index++) {
      const decision = decideRetry(
        { kind: 'status', status: 429, retryAfterMs: 2000 },
        1,
        true,
        RETRY_DEFAULTS,
        random,
      );
      expect(decision.retry && decision.delayMs >= 2000 && decision.delayMs < 2500).toBe(true);
    }
  });

  it('caps the backoff ceiling at maxDelayMs', () => {
    const decision = decideRetry(
      { kind: 'status', status: 503, retryAfterMs: undefined },
      9,
      true,
      { ...RETRY_DEFAULTS, maxAttempts: 20 },
      fixed(0.5),
    );
    expect(decision).toEqual({ retry: true, delayMs: 4000 });
  });

  it('stops after the configured attempts, and at once when Retry-After exceeds maxWaitMs', () => {
    expect(
      decideRetry(
        { kind: 'status', status: 429, retryAfterMs: 0 },
        3,
        true,
        RETRY_DEFAULTS,
        fixed(0),
      ),
    ).toEqual({ retry: false, reason: 'max-attempts' });
    expect(
      decideRetry(
        { kind: 'status', status: 429, retryAfterMs: 60_000 },
        1,
        true,
        RETRY_DEFAULTS,
        fixed(0),
      ),
    ).toEqual({ retry: false, reason: 'wait-too-long' });
  });

  it('does not retry success or client errors other than 429', () => {
    expect(
      decideRetry(
        { kind: 'status', status: 200, retryAfterMs: undefined },
        1,
        true,
        RETRY_DEFAULTS,
        fixed(0),
      ),
    ).toEqual({ retry: false, reason: 'done' });
    for (const status of [400, 401, 403, 404, 409, 422, 500]) {
      expect(
        decideRetry(
          { kind: 'status', status, retryAfterMs: undefined },
          1,
          true,
          RETRY_DEFAULTS,
          fixed(0),
        ),
      ).toEqual({ retry: false, reason: 'not-retryable' });
    }
  });

  it('waits the whole backoff when the random source gives no share from 0 to 1', () => {
    const status = { kind: 'status', status: 503, retryAfterMs: 1000 } as const;
    for (const draw of [Number.NaN, 5, -1])
      expect(decideRetry(status, 1, true, RETRY_DEFAULTS, fixed(draw))).toEqual({
        retry: true,
        delayMs: 1000 + RETRY_DEFAULTS.baseDelayMs,
      });
  });

  it('repeats a request lost on the network only when it was never sent or is idempotent', () => {
    expect(
      decideRetry({ kind: 'network', sent: false }, 1, false, RETRY_DEFAULTS, fixed(0)).retry,
    ).toBe(true);
    expect(
      decideRetry({ kind: 'network', sent: true }, 1, true, RETRY_DEFAULTS, fixed(0)).retry,
    ).toBe(true);
    expect(
      decideRetry({ kind: 'network', sent: true }, 1, false, RETRY_DEFAULTS, fixed(0)),
    ).toEqual({ retry: false, reason: 'not-retryable' });
    // A failure that every attempt would meet again (TLS refused, a blocked port): none more.
    for (const sent of [false, true])
      expect(
        decideRetry({ kind: 'network', sent, lasting: true }, 1, true, RETRY_DEFAULTS, fixed(0)),
      ).toEqual({ retry: false, reason: 'not-retryable' });
  });

  it('does not follow up a redirect or an unusable answer', () => {
    for (const status of [301, 302, 303, 307, 308]) {
      expect(
        decideRetry(
          { kind: 'status', status, retryAfterMs: undefined },
          1,
          true,
          RETRY_DEFAULTS,
          fixed(0),
        ),
      ).toEqual({ retry: false, reason: 'not-retryable' });
    }
    expect(decideRetry({ kind: 'unusable' }, 1, true, RETRY_DEFAULTS, fixed(0))).toEqual({
      retry: false,
      reason: 'not-retryable',
    });
  });
});
