import { describe, expect, it } from 'vitest';
import { checkDevApiHost } from './host-guard.js';

const allowed = (host: string) => checkDevApiHost(host, {}, '/__uas/codes') === undefined;

describe('checkDevApiHost', () => {
  it('lets through an IPv4-mapped loopback address as a browser writes it', () => {
    // new URL('http://[::ffff:127.0.0.1]:4010/').host is '[::ffff:7f00:1]:4010'.
    const host = new URL('http://[::ffff:127.0.0.1]:4010/').host;
    expect(host).toBe('[::ffff:7f00:1]:4010');
    expect(allowed(host)).toBe(true);
    expect(allowed('[::ffff:7f12:3456]')).toBe(true);
    expect(allowed('[::ffff:127.0.0.1]:4010')).toBe(true);
  });

  it('refuses IPv4-mapped addresses beyond loopback, in either form', () => {
    for (const host of ['[::ffff:a00:1]', '[::ffff:10.0.0.1]', '[::ffff:8000:1]', '[::ffff:7f00]'])
      expect(allowed(host), host).toBe(false);
  });

  it('lets through a name of --allowed-hosts written with its root dot, and nothing made to end in it', () => {
    const policy = { allowedHosts: ['uas.internal'] };
    const passes = (host: string) => checkDevApiHost(host, policy, '/__uas/codes') === undefined;
    expect(passes('uas.internal')).toBe(true);
    expect(passes('uas.internal.:4010')).toBe(true);
    expect(passes('UAS.Internal.')).toBe(true);
    expect(passes('uas.internal..')).toBe(false);
    expect(passes('evil.uas.internal')).toBe(false);
    // Not a valid Host value: a name, a port, then more.
    expect(passes('uas.internal:evil.example')).toBe(false);
  });
});
