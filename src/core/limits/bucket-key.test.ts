import { describe, expect, it } from 'vitest';
import { bucketKey, levelOf, parseBucketKey } from './bucket-key.js';

describe('bucketKey', () => {
  it('uses the client bucket without a caller_id and a client-scoped caller bucket with one', () => {
    expect(bucketKey('acme', undefined, 'client')).toBe('client:acme');
    expect(bucketKey('acme', '203.0.113.7', 'client')).toBe('caller:acme:203.0.113.7');
    expect(bucketKey('acme', '203.0.113.7', 'global')).toBe('caller:*:203.0.113.7');
  });

  it('parses keys back, keeping colons inside a caller_id', () => {
    expect(parseBucketKey('caller:acme:2001:db8::1')).toEqual({
      level: 'caller',
      clientId: 'acme',
      callerId: '2001:db8::1',
    });
    expect(parseBucketKey('caller:*:x')).toEqual({
      level: 'caller',
      clientId: undefined,
      callerId: 'x',
    });
    expect(parseBucketKey('client:acme')).toEqual({
      level: 'client',
      clientId: 'acme',
      callerId: undefined,
    });
    expect(parseBucketKey('nonsense')).toBeUndefined();
    expect(levelOf('client:acme')).toBe('client');
    expect(levelOf('caller:acme:x')).toBe('caller');
  });
});
