import { describe, expect, it } from 'vitest';
import { hostArgument } from './serve.js';

describe('--host', () => {
  it('takes an IPv6 address in brackets, as a URL writes it, and listens on it without them', () => {
    expect(hostArgument('[::1]')).toBe('::1');
    expect(hostArgument('[::]')).toBe('::');
    expect(hostArgument('::1')).toBe('::1');
  });

  it('leaves any other value as given, for listen to take or refuse', () => {
    expect(hostArgument('127.0.0.1')).toBe('127.0.0.1');
    expect(hostArgument('localhost')).toBe('localhost');
    expect(hostArgument('[localhost]')).toBe('[localhost]');
    expect(hostArgument('[::1')).toBe('[::1');
  });
});
