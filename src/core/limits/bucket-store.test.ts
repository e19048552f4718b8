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

  it('keeps what was set, not the object it was given, and reads without making one', () => {
    const store = createBucketStore();
    const given = {
      tokens: 2.5,
      updatedAt: 1_700_000_000_123.5,
      allowed: 3,
      rejected: 4,
      shadowRejected: 5,
    };
    store.set('a', given);
    given.tokens = 0;
    expect(store.get('a')).toEqual({ ...given, tokens: 2.5 });
    const into = bucket();
    expect(store.read('a', into)).toBe(true);
    expect(into).toEqual({ ...given, tokens: 2.5 });
    const untouched = bucket();
    expect(store.read('b', untouched)).toBe(false);
    expect(untouched).toEqual(bucket());
  });

  it('holds many buckets past its first slots, reuses the slots of dropped ones, and counts past 2^32', () => {
    const store = createBucketStore({ maxBuckets: 5_000 });
    for (let index = 0; index < 5_000; index++)
      store.set(`k${index}`, { ...bucket(), tokens: index, allowed: index * 2 ** 33 }, true);
    for (let index = 0; index < 5_000; index += 2) store.delete(`k${index}`);
    for (let index = 5_000; index < 7_500; index++)
      store.set(`k${index}`, { ...bucket(), tokens: index }, true);
    expect(store.size).toBe(5_000);
    expect(store.evictions).toBe(0);
    expect(store.get('k4999')).toEqual({ ...bucket(), tokens: 4999, allowed: 4999 * 2 ** 33 });
    expect(store.get('k7499')?.tokens).toBe(7499);
    expect(store.get('k0')).toBeUndefined();
    expect([...store.keys()].slice(0, 2)).toEqual(['k1', 'k3']);
  });

  it('sweeps from where it stopped and drops what it is told may go', () => {
    const store = createBucketStore();
    for (let index = 0; index < 6; index++) store.set(`k${index}`, { ...bucket(), tokens: index });
    const seen: string[] = [];
    const oddTokens = (key: string, held: { tokens: number }) => {
      seen.push(key);
      return held.tokens % 2 === 1;
    };
    store.sweep(oddTokens, 4);
    store.sweep(oddTokens, 4);
    expect(seen.slice(0, 6)).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5']);
    expect([...store.keys()]).toEqual(['k0', 'k2', 'k4']);
  });

  it('keeps the order of use exactly through any mix of uses, additions, deletions and evictions', () => {
    // A reference: keys in order of use, least recent first, cut from the front past the maximum.
    let seed = 7;
    const draw = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % below;
    };
    const store = createBucketStore({ maxBuckets: 40 });
    let order: string[] = [];
    let evictions = 0;
    for (let step = 0; step < 5_000; step++) {
      const key = `k${draw(60)}`;
      if (draw(10) === 0) {
        expect(store.delete(key)).toBe(order.includes(key));
        order = order.filter((held) => held !== key);
      } else {
        store.set(key, { ...bucket(), tokens: step });
        order = [...order.filter((held) => held !== key), key];
        if (order.length > 40) {
          order.shift();
          evictions++;
        }
      }
      if (step % 97 === 0) store.sweep(() => false, 3);
    }
    expect([...store.keys()]).toEqual(order);
    expect([...store.entries()].map(([key]) => key)).toEqual(order);
    expect(store.size).toBe(order.length);
    expect(store.evictions).toBe(evictions);
  });

  it('keeps its place when the bucket it would look at next is used or dropped', () => {
    const store = createBucketStore();
    for (const key of ['a', 'b', 'c', 'd', 'e']) store.set(key, bucket());
    const seen: string[] = [];
    const look = (key: string) => {
      seen.push(key);
      return false;
    };
    store.sweep(look, 1); // a; b is next
    store.set('b', bucket()); // b moves to the end: the sweep goes on at c
    store.sweep(look, 1);
    store.delete('d'); // d was next: the sweep goes on at e
    store.sweep(look, 2);
    expect(seen).toEqual(['a', 'c', 'e', 'b']);
  });
});
