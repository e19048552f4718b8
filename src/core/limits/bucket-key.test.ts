import { describe, expect, it } from 'vitest';
import { bucketKey, levelOf, parseBucketKey } from './bucket-key.js';

describe('bucketKey', () => {
  it('uses the client bucket without a caller_id and a client-scoped caller bucket with one', () => {
    expect(bucketKey('acme', undefined, 'client')).toBe('client:acme');
    expect(bucketKey('acme', '203.0.113.7', 'client')).toBe('caller:acme:203.0.113.7');
    expect(bucketKey('acme', '203.0.113.7', 'global')).toBe('caller:*:203.0.113.7');
  });

  it('gives each call its own key when callers, clients and scopes follow one another', () => {
    // The last key made is kept: a caller asking again, or another part changing, must not
    // be handed the key of the call before.
    const calls: [string, string | undefined, 'client' | 'global', string][] = [
      ['', '', 'client', 'caller::'],
      ['acme', 'bot', 'client', 'caller:acme:bot'],
      ['acme', 'bot', 'client', 'caller:acme:bot'],
      ['shop', 'bot', 'client', 'caller:shop:bot'],
      ['shop', 'bot', 'global', 'caller:*:bot'],
      ['acme', 'bot', 'global', 'caller:*:bot'],
      ['acme', 'bot', 'client', 'caller:acme:bot'],
      ['acme', undefined, 'client', 'client:acme'],
      ['acme', 'bot2', 'client', 'caller:acme:bot2'],
      ['*', 'bot2', 'client', 'caller:*:bot2'],
      ['acme', ['b', 'ot2'].join(''), 'client', 'caller:acme:bot2'],
    ];
    for (const [clientId, callerId, scope, key] of calls)
      expect(bucketKey(clientId, callerId, scope)).toBe(key);
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
