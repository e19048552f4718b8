import { describe, expect, it } from 'vitest';
import {
  callerIdFromForwardedFor,
  callerIdFromHeaders,
  compileRanges,
  normalizeAddress,
} from './caller-id.js';

describe('callerIdFromHeaders', () => {
  it('takes the rightmost address that is not a trusted proxy, counted in hops', () => {
    expect(callerIdFromForwardedFor('203.0.113.7, 10.0.0.2', 1).callerId).toBe('203.0.113.7');
    expect(callerIdFromForwardedFor('203.0.113.7, 10.0.0.2', 0).callerId).toBe('10.0.0.2');
    expect(callerIdFromForwardedFor('198.51.100.9, 203.0.113.7, 10.0.0.2', 1).callerId).toBe(
      '203.0.113.7',
    );
  });

  it('never trusts the leftmost, spoofable value when a client prepends one', () => {
    const spoofed = callerIdFromForwardedFor('1.1.1.1, 203.0.113.7, 10.0.0.2', ['private']);
    expect(spoofed.callerId).toBe('203.0.113.7');
    expect(callerIdFromForwardedFor('10.0.0.9, 10.0.0.2', ['private'])).toMatchObject({
      callerId: undefined,
      reason: 'every address in the chain is a trusted proxy',
    });
  });

  it('matches trusted addresses, CIDR ranges and presets', () => {
    expect(
      callerIdFromForwardedFor('203.0.113.7, 192.168.1.4, 127.0.0.1', [
        'loopback',
        '192.168.0.0/16',
      ]).callerId,
    ).toBe('203.0.113.7');
    expect(callerIdFromForwardedFor('203.0.113.7, 198.51.100.1', ['198.51.100.1']).callerId).toBe(
      '203.0.113.7',
    );
    expect(() => compileRanges(['not-an-ip'])).toThrow(/not an address, a CIDR range/);
  });

  it('reads several X-Forwarded-For lines in order, and the remote address as the last hop', () => {
    const result = callerIdFromHeaders(
      { 'x-forwarded-for': ['203.0.113.7', '10.0.0.2'] },
      { remoteAddress: '10.0.0.3', trustedProxies: 2 },
    );
    expect(result.callerId).toBe('203.0.113.7');
    expect(result.chain.map((entry) => entry.address)).toEqual([
      '203.0.113.7',
      '10.0.0.2',
      '10.0.0.3',
    ]);
  });

  it('reads Forwarded (RFC 7239) with quoted IPv6, ports and obfuscated nodes, preferring it over X-Forwarded-For', () => {
    const headers = new Headers({
      forwarded: 'for="[2001:db8:cafe::17]:4711";proto=https, for=10.0.0.2',
      'x-forwarded-for': '1.2.3.4',
    });
    expect(callerIdFromHeaders(headers, { trustedProxies: 1 }).callerId).toBe('2001:db8:cafe::17');
    expect(
      callerIdFromHeaders({ forwarded: 'for=_hidden, for=10.0.0.2' }, { trustedProxies: 1 }),
    ).toMatchObject({ callerId: undefined });
    expect(callerIdFromHeaders({ forwarded: 'for=' }).callerId).toBeUndefined();
  });

  it('gives no caller_id rather than a guess when the nearest untrusted entry is junk', () => {
    const result = callerIdFromForwardedFor('203.0.113.7, not-an-address, 10.0.0.2', 1);
    expect(result.callerId).toBeUndefined();
    expect(result.reason).toContain('"not-an-address" is not an address');
    expect(callerIdFromHeaders({}).reason).toBe('no forwarding header and no remote address');
  });
});

describe('normalizeAddress', () => {
  it.each([
    ['203.0.113.7:51234', '203.0.113.7'],
    ['[2001:db8::1]:443', '2001:db8::1'],
    ['[2001:db8::1]', '2001:db8::1'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['"192.0.2.60"', '192.0.2.60'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
  ])('reads %s as %s', (raw, address) => {
    expect(normalizeAddress(raw)).toBe(address);
  });

  it.each(['unknown', '_obfuscated', '999.1.1.1', '1.2.3', 'example.com', '', '0x7f.1'])(
    'refuses %j',
    (raw) => {
      expect(normalizeAddress(raw)).toBeUndefined();
    },
  );
});
