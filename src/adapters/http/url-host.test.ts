import { describe, expect, it } from 'vitest';
import { urlHost } from './http-server.js';

describe('urlHost', () => {
  it('gives loopback for an address that means every interface, however it was written', () => {
    expect(urlHost('0.0.0.0', '0.0.0.0')).toBe('127.0.0.1');
    expect(urlHost('0', '0.0.0.0')).toBe('127.0.0.1');
    expect(urlHost('::', '::')).toBe('[::1]');
    expect(urlHost('0:0:0:0:0:0:0:0', '::')).toBe('[::1]');
  });

  it('keeps a name or an address as given, an IPv6 one in brackets', () => {
    expect(urlHost('localhost', '127.0.0.1')).toBe('localhost');
    expect(urlHost('127.0.0.1', '127.0.0.1')).toBe('127.0.0.1');
    expect(urlHost('::1', '::1')).toBe('[::1]');
  });
});
