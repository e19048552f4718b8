import { describe, expect, it } from 'vitest';
import { CASE_T0, TAKE_CASES, type TakeCase } from '../../../test/helpers/decision-cases.js';
import { resolveConfig } from '../config/config.js';
import { DEMO_CONFIG } from '../../demo-config.js';
import { decideTake, type BucketTake } from './bucket-ledger.js';
import { createBucketStore, type StoredBucket } from './bucket-store.js';
import { createMemoryLedger } from './memory-ledger.js';

const KEY = 'caller:demo:case';

const requestOf = (row: TakeCase): BucketTake => ({ ...row.request, key: KEY, level: 'caller' });

/** The counters a kept bucket of the table starts with. */
const COUNTERS = { allowed: 3, rejected: 4, shadowRejected: 5 };

describe('decideTake', () => {
  it.each(TAKE_CASES)('$name', (row) => {
    const { taken, write } = decideTake(row.stored, requestOf(row));
    expect(taken.verdict).toBe(row.expected.verdict);
    expect(taken.state.tokens).toBeCloseTo(row.expected.tokens, 9);
    expect(taken.state.remaining).toBe(row.expected.remaining);
    expect(taken.state.retryAfterMs).toBeCloseTo(row.expected.retryAfterMs, 6);
    if (row.expected.write === undefined) {
      expect(write).toBeUndefined();
      return;
    }
    expect(write?.count).toBe(row.expected.write.count);
    expect(write?.tokens).toBeCloseTo(row.expected.write.tokens, 9);
    expect(write?.updatedAt).toBe(row.expected.write.updatedAt ?? row.request.now);
  });

  it('answers the same take the same way every time (nothing is kept between calls)', () => {
    for (const row of TAKE_CASES)
      expect(decideTake(row.stored, requestOf(row))).toEqual(
        decideTake(row.stored, requestOf(row)),
      );
  });
});

describe('createMemoryLedger', () => {
  it.each(TAKE_CASES)('$name', (row) => {
    const buckets = createBucketStore();
    if (row.stored !== undefined) buckets.set(KEY, { ...row.stored, ...COUNTERS }, true);
    const config = resolveConfig(DEMO_CONFIG);
    const ledger = createMemoryLedger(
      () => buckets,
      () => config,
    );
    const taken = ledger.take(requestOf(row));
    expect(taken).toEqual(decideTake(row.stored, requestOf(row)).taken);
    const after = buckets.get(KEY);
    const { write } = row.expected;
    if (write === undefined) {
      expect(
        after === undefined ? undefined : { tokens: after.tokens, updatedAt: after.updatedAt },
      ).toEqual(row.stored);
      return;
    }
    const before =
      row.stored === undefined ? { allowed: 0, rejected: 0, shadowRejected: 0 } : COUNTERS;
    const counters = (bucket: StoredBucket | undefined) => ({
      allowed: bucket?.allowed,
      rejected: bucket?.rejected,
      shadowRejected: bucket?.shadowRejected,
    });
    expect(after?.tokens).toBeCloseTo(write.tokens, 9);
    expect(after?.updatedAt).toBe(write.updatedAt ?? CASE_T0);
    expect(counters(after)).toEqual({
      ...before,
      [write.count as string]: before[write.count as keyof typeof before] + 1,
    });
  });
});
