import { describe, expect, it } from 'vitest';
import { createRedisKeys } from './redis-keys.js';

describe('createRedisKeys', () => {
  it('puts each bucket and code under a hash tag of its own, below the prefix', () => {
    const keys = createRedisKeys('uas');
    expect(keys.bucket('caller:demo:ip-1')).toBe('uas:bucket:{caller:demo:ip-1}');
    expect(keys.code('M-1', 'Alice@Example.com')).toBe('uas:code:{m-1 alice@example.com}');
    expect(keys.code('m-1', 'alice@example.com')).toBe(keys.code('M-1', 'ALICE@example.COM'));
    expect([keys.meta, keys.users, keys.clock, keys.clockStart]).toEqual([
      'uas:meta',
      'uas:users',
      'uas:clock',
      'uas:clock-start',
    ]);
    expect([keys.changes, keys.events, keys.codes]).toEqual([
      'uas:changes',
      'uas:events',
      'uas:code:*',
    ]);
    expect(keys.buckets()).toBe('uas:bucket:*');
    expect(keys.buckets('client')).toBe('uas:bucket:{client:*');
  });

  it('reads the bucket back from its key', () => {
    const keys = createRedisKeys('a.b');
    for (const bucket of ['client:demo', 'caller:*:x}y', 'caller:demo:'])
      expect(keys.bucketOf(keys.bucket(bucket))).toBe(bucket);
  });

  it('refuses a prefix that could reach into other keys, in one line', () => {
    for (const prefix of ['', 'a:b', 'a b', 'x'.repeat(65), 'é', 'a*'])
      expect(() => createRedisKeys(prefix)).toThrow(
        `invalid store prefix ${JSON.stringify(prefix)}: expected 1 to 64 letters, digits, "_", "." or "-"`,
      );
  });
});
