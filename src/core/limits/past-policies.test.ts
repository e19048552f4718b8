import { describe, expect, it } from 'vitest';
import {
  MAX_PAST_POLICIES,
  SAME_INSTANT_STEP,
  pastAfterChange,
  readPastPolicies,
  writtenAt,
} from './past-policies.js';
import { tokensAt, type BucketPolicy } from './token-bucket.js';

const fast = { burst: 20, refillPerMs: 10 / 1000 }; // full from empty in 2 s
const slow = { burst: 20, refillPerMs: 20 / 3_600_000 }; // in an hour

describe('tokensAt across live changes', () => {
  it('refills each stretch at the policy then in force, and caps the tokens at each burst', () => {
    const policy: BucketPolicy = { ...slow, past: pastAfterChange(fast, slow, 500) };
    expect(tokensAt({ tokens: 10, updatedAt: 0 }, 500, policy)).toBe(15);
    expect(tokensAt({ tokens: 10, updatedAt: 0 }, 180_500, policy)).toBeCloseTo(16, 9);
    // Updated after the change: the new policy only.
    expect(tokensAt({ tokens: 10, updatedAt: 600 }, 180_600, policy)).toBeCloseTo(11, 9);
    const lowered = { burst: 5, refillPerMs: fast.refillPerMs };
    expect(
      tokensAt({ tokens: 19, updatedAt: 0 }, 100, { ...lowered, past: [{ ...fast, until: 50 }] }),
    ).toBe(5);
  });
});

describe('pastAfterChange', () => {
  it('keeps nothing when the limits stay the same', () => {
    expect(pastAfterChange(fast, { ...fast }, 1000)).toEqual([]);
  });

  it('drops what came before a policy that stayed long enough to fill any bucket', () => {
    const first = pastAfterChange(fast, slow, 1_000);
    expect(first).toEqual([{ ...fast, until: 1_000 }]);
    const second = pastAfterChange({ ...slow, past: first }, fast, 2_000);
    expect(second).toHaveLength(2);
    // The fast policy then lasts 2 s, long enough to fill an empty bucket: the rest goes.
    const third = pastAfterChange({ ...fast, past: second }, slow, 4_000);
    expect(third).toEqual([{ ...fast, until: 4_000 }]);
  });

  it('keeps at most the last changes made in quick succession', () => {
    let policy: BucketPolicy = fast;
    for (let index = 1; index <= MAX_PAST_POLICIES + 5; index++) {
      const next = index % 2 === 0 ? fast : slow;
      policy = { ...next, past: pastAfterChange(policy, next, index) };
    }
    expect(policy.past).toHaveLength(MAX_PAST_POLICIES);
    expect(policy.past?.at(-1)?.until).toBe(MAX_PAST_POLICIES + 5);
  });
});

describe('changes made at one instant', () => {
  it('are dated in the order they were made, and a bucket updated after them is dated after them', () => {
    const low = { ...fast, burst: 1 };
    const first = pastAfterChange(fast, low, 1_000);
    const second = pastAfterChange({ ...low, past: first }, fast, 1_000);
    expect(second).toEqual([
      { ...fast, until: 1_000 },
      { ...low, until: 1_000 + SAME_INSTANT_STEP },
    ]);
    const raised: BucketPolicy = { ...fast, past: second };
    // Updated at that instant before the changes: cut to the lowered burst.
    expect(tokensAt({ tokens: 15, updatedAt: 1_000 }, 1_000, raised)).toBe(1);
    expect(writtenAt(1_000, raised)).toBe(1_000 + SAME_INSTANT_STEP);
    expect(tokensAt({ tokens: 15, updatedAt: writtenAt(1_000, raised) }, 1_000, raised)).toBe(15);
    // A change a millisecond later, or a bucket updated a millisecond later, is dated as it is.
    expect(pastAfterChange(raised, low, 1_001).at(-1)?.until).toBe(1_001);
    expect(writtenAt(1_001, raised)).toBe(1_001);
  });
});

describe('readPastPolicies', () => {
  it('reads what an instance sent, and nothing that does not fit', () => {
    const past = { client: [{ ...fast, until: 1 }], caller: [] };
    expect(readPastPolicies(JSON.parse(JSON.stringify(past)))).toEqual(past);
    for (const junk of [
      null,
      'x',
      { client: [] },
      { client: [{ ...fast, until: 'soon' }], caller: [] },
      { client: [{ ...fast, burst: 0, until: 1 }], caller: [] },
      { client: [{ ...fast, refillPerMs: -1, until: 1 }], caller: [] },
      { client: [{ ...fast, until: 1e300 }], caller: [] },
      {
        client: [
          { ...fast, until: 2 },
          { ...fast, until: 1 },
        ],
        caller: [],
      },
      {
        client: Array.from({ length: MAX_PAST_POLICIES + 1 }, () => ({ ...fast, until: 1 })),
        caller: [],
      },
    ])
      expect(readPastPolicies(junk), JSON.stringify(junk)).toBeUndefined();
  });
});
