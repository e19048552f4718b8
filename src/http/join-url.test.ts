import { describe, expect, it } from 'vitest';
import { joinUrl, trimBaseUrl } from './join-url.js';

describe('joinUrl', () => {
  it('puts a path under a base URL, its path prefix kept and its trailing slashes dropped', () => {
    expect(joinUrl('http://127.0.0.1:4010', '/v1/users/exists?email=a')).toBe(
      'http://127.0.0.1:4010/v1/users/exists?email=a',
    );
    expect(joinUrl('https://h.test/uas//', '/__uas/health')).toBe(
      'https://h.test/uas/__uas/health',
    );
    expect(trimBaseUrl('http://h/')).toBe('http://h');
  });
});
