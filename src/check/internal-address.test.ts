import ipaddr from 'ipaddr.js';
import { describe, expect, it, vi } from 'vitest';
import { internalRangeOf } from './internal-address.js';

describe('internalRangeOf', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['[::1]:8080', 'loopback'],
    ['127.0.0.1:443', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.20', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['fd00::1', 'unique-local'],
    ['fc12:3456::1', 'unique-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['FD00::1', 'unique-local'],
    ['FE80::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['[fd12::1]:8443', 'unique-local'],
  ])('classifies %s as %s', (value, range) => {
    expect(internalRangeOf(value)).toBe(range);
  });

  it.each([
    '203.0.113.7',
    '8.8.8.8',
    '100.63.255.255',
    '100.128.0.1',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
  ])('leaves the public address %s alone', (value) => {
    expect(internalRangeOf(value)).toBeUndefined();
  });

  it.each([
    '',
    'unknown',
    'sess_8f2c',
    '[::1',
    '::1]',
    '[]',
    '999.1.1.1',
    '10.1',
    '0x7f.1',
    '1.2.3.4.5',
    'x'.repeat(256),
  ])('takes %j for no address at all', (value) => {
    expect(internalRangeOf(value)).toBeUndefined();
  });

  it('never asks ipaddr.js about a value that cannot be internal: it tells a non-address by throwing, tens of µs each', () => {
    const parsers = [
      vi.spyOn(ipaddr, 'isValid'),
      vi.spyOn(ipaddr, 'parse'),
      vi.spyOn(ipaddr.IPv4, 'isValid'),
      vi.spyOn(ipaddr.IPv4, 'parse'),
      vi.spyOn(ipaddr.IPv6, 'isValid'),
      vi.spyOn(ipaddr.IPv6, 'parse'),
    ];
    try {
      for (const value of [
        'sess_8f2c',
        'c-1234',
        'shopper@example.com',
        '203.0.113.7',
        '8.8.8.8:443',
        '2a00:1450:4001:80b::200e',
        '[2001:db8::1]:8080',
        'x'.repeat(256),
      ])
        expect(internalRangeOf(value), value).toBeUndefined();
      for (const parser of parsers) expect(parser).not.toHaveBeenCalled();
    } finally {
      for (const parser of parsers) parser.mockRestore();
    }
  });
});
