import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../time/clock.js';
import { MAX_AHEAD_MS, peekBucket, takeTokens, type BucketState } from './token-bucket.js';

const policy = { burst: 3, refillPerMs: 1 / 1000 };

describe('takeTokens', () => {
  it('treats an absent bucket as full', () => {
    const decision = takeTokens(undefined, 0, policy, 1);
    expect(decision).toMatchObject({ allowed: true, tokens: 2, remaining: 2, retryAfterMs: 0 });
  });

  it('rejects the fourth request when the bucket holds three tokens and nothing refilled', () => {
    let state: BucketState | undefined;
    const outcomes = [];
    for (let index = 0; index < 4; index++) {
      const decision = takeTokens(state, 0, policy, 1);
      outcomes.push(decision.allowed);
      state = { tokens: decision.tokens, updatedAt: 0 };
    }
    expect(outcomes).toEqual([true, true, true, false]);
  });

  it('refills continuously and reports when the next token comes', () => {
    const clock = createManualClock();
    const empty = { tokens: 0, updatedAt: clock.now() };
    clock.advance(250);
    const rejected = takeTokens(empty, clock.now(), policy, 1);
    expect(rejected.allowed).toBe(false);
    expect(rejected.retryAfterMs).toBeCloseTo(750);
    expect(rejected.nextTokenMs).toBeCloseTo(750);
    clock.advance(750);
    expect(takeTokens(empty, clock.now(), policy, 1).allowed).toBe(true);
  });

  it('never holds more than the burst however long the bucket rests', () => {
    expect(peekBucket({ tokens: 0, updatedAt: 0 }, 1e9, policy)).toMatchObject({
      tokens: 3,
      remaining: 3,
      nextTokenMs: 0,
      fullInMs: 0,
    });
  });

  it("counts every wait from the bucket's own time when the clock was set back before it", () => {
    // Emptied at 10 s, then a manual clock set back to 4 s: nothing refills until 10 s again.
    const ahead: BucketState = { tokens: 0, updatedAt: 10_000 };
    const rejected = takeTokens(ahead, 4_000, policy, 1);
    expect(rejected).toMatchObject({ allowed: false, tokens: 0, remaining: 0 });
    expect(rejected.retryAfterMs).toBeCloseTo(7_000);
    expect(rejected.nextTokenMs).toBeCloseTo(7_000);
    expect(rejected.fullInMs).toBeCloseTo(9_000);
    expect(takeTokens(ahead, 4_000 + rejected.retryAfterMs - 1, policy, 1).allowed).toBe(false);
    expect(takeTokens(ahead, 4_000 + rejected.retryAfterMs, policy, 1).allowed).toBe(true);
    expect(peekBucket({ tokens: 1, updatedAt: 10_000 }, 4_000, policy)).toMatchObject({
      remaining: 1,
      nextTokenMs: 7_000,
      fullInMs: 8_000,
    });
    expect(peekBucket({ tokens: 0, updatedAt: Infinity }, 0, policy).fullInMs).toBe(
      MAX_AHEAD_MS + 3_000,
    );
  });

  it('charges the configured cost and leaves the bucket as it was when rejected', () => {
    const decision = takeTokens({ tokens: 1.5, updatedAt: 0 }, 0, policy, 2);
    expect(decision.allowed).toBe(false);
    expect(decision.tokens).toBe(1.5);
    expect(decision.retryAfterMs).toBeCloseTo(500);
  });

  it('allows a request exactly when the advertised wait has passed despite floating point', () => {
    const slow = { burst: 5, refillPerMs: 1 / 3000 };
    let state: BucketState = { tokens: 0.1, updatedAt: 0 };
    const rejected = takeTokens(state, 0, slow, 1);
    state = { tokens: rejected.tokens, updatedAt: 0 };
    expect(takeTokens(state, rejected.retryAfterMs, slow, 1).allowed).toBe(true);
  });

  it('decides within the burst, with finite waits, whatever a stored bucket holds', () => {
    // What a store shared with other programs may hand back: any number at all.
    const stored = fc.record({ tokens: fc.double(), updatedAt: fc.double() });
    fc.assert(
      fc.property(stored, fc.integer({ min: 0, max: 3 }), (state, cost) => {
        const decision = takeTokens(state, 1_000, policy, cost);
        expect(decision.tokens).toBeGreaterThanOrEqual(0);
        expect(decision.tokens).toBeLessThanOrEqual(policy.burst);
        // A bucket dated after now refills only from its own time: its waits start there.
        const ahead = state.updatedAt > 1_000 ? MAX_AHEAD_MS : 0;
        for (const wait of [decision.retryAfterMs, decision.nextTokenMs, decision.fullInMs])
          expect(wait >= 0 && wait <= ahead + policy.burst / policy.refillPerMs).toBe(true);
      }),
    );
  });
});
