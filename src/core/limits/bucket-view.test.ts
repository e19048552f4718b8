import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '../time/random.js';
import { parseRate, refillPerMs } from '../config/rate.js';
import {
  createBucketSelection,
  viewBucket,
  type BucketCandidate,
  type BucketSort,
} from './bucket-view.js';

function candidates(count: number, seed: number): BucketCandidate[] {
  const random = createSeededRandom(seed);
  return Array.from({ length: count }, (_, index) => ({
    key: `caller:demo:${Math.floor(random.next() * count)}-${index}`,
    fill: Math.floor(random.next() * 6) / 5,
    bucket: {
      tokens: 0,
      updatedAt: Math.floor(random.next() * 50),
      allowed: 1,
      rejected: Math.floor(random.next() * 4),
      shadowRejected: 0,
    },
  }));
}

const keysOf = (list: BucketCandidate[]) => list.map((candidate) => candidate.key);

describe('createBucketSelection', () => {
  it.each<[BucketSort, number]>([
    ['pressure', 10],
    ['recent', 25],
    ['rejected', 1],
    ['key', 100],
    ['pressure', 5000],
  ])('keeps the same first entries as a full sort (%s, limit %i)', (sort, limit) => {
    const all = candidates(3000, limit);
    const selection = createBucketSelection(sort, limit);
    all.forEach((candidate) => selection.offer(candidate));
    const everything = createBucketSelection(sort, 100_000);
    all.forEach((candidate) => everything.offer(candidate));
    expect(keysOf(selection.result())).toEqual(keysOf(everything.result()).slice(0, limit));
    expect(selection.result()).toHaveLength(Math.min(limit, all.length));
  });

  it('puts the emptiest bucket first, then the most rejected', () => {
    const selection = createBucketSelection('pressure', 3);
    const bucket = (rejected: number) => ({
      tokens: 0,
      updatedAt: 0,
      allowed: 0,
      rejected,
      shadowRejected: 0,
    });
    selection.offer({ key: 'b', fill: 0.5, bucket: bucket(0) });
    selection.offer({ key: 'c', fill: 0, bucket: bucket(1) });
    selection.offer({ key: 'a', fill: 0, bucket: bucket(7) });
    selection.offer({ key: 'd', fill: 1, bucket: bucket(9) });
    expect(keysOf(selection.result())).toEqual(['a', 'c', 'b']);
  });
});

describe('viewBucket', () => {
  it('says a token at 1/h is 3600000 ms away once taken, where the division made it 3600001', () => {
    const rate = parseRate('1/h')!;
    const limits = { burst: 1, rate, rateText: '1/h', refillPerMs: refillPerMs(rate) };
    const bucket = { tokens: 0, updatedAt: 0, allowed: 1, rejected: 0, shadowRejected: 0 };
    const view = viewBucket('caller:demo:x', bucket, limits, 0);
    expect(view.next_token_ms).toBe(3_600_000);
    expect(view.full_in_ms).toBe(3_600_000);
  });
});
