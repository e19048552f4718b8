import { describe, expect, it } from 'vitest';
import { constantTimeEqual } from './constant-time.js';

describe('constantTimeEqual', () => {
  it('is true only for equal strings, whatever their lengths', () => {
    expect(constantTimeEqual('uas-demo-token', 'uas-demo-token')).toBe(true);
    expect(constantTimeEqual('uas-demo-token', 'uas-demo-tokeN')).toBe(false);
    expect(constantTimeEqual('uas-demo-token', 'uas-demo-token-longer')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
    expect(constantTimeEqual('a', '')).toBe(false);
    expect(constantTimeEqual('\u0000', '')).toBe(false);
  });
});
