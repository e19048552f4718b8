import { describe, expect, it } from 'vitest';
import { createBucketStore } from './bucket-store.js';

const bucket = () => ({ tokens: 1, updatedAt: 0, allowed: 0, rejected: 0, shadowRejected: 0 });

describe('createBucketStore', () => {
  it('drops the least recently used bucket past the maximum', () => {
    const store = createBucketStore({ maxBuckets: 2 });
    store.set('a', bucket());
    store.set('b', bucket());
    store.set('a', store.get('a') ?? bucket());
    store.set('c', bucket());
    expect([...store.entries()].map(([key]) => key)).toEqual(['a', 'c']);
    expect(store.evictions).toBe(1);
  });

  it('shrinks at once when the maximum is lowered', () => {
    const store = createBucketStore({ maxBuckets: 10 });
    for (const key of ['a', 'b', 'c', 'd']) store.set(key, bucket());
    store.setMaxBuckets(1);
    expect(store.size).toBe(1);
    expect(store.get('d')).toBeDefined();
  });
});
