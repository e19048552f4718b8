import { describe, expect, it } from 'vitest';
import { otpCodeKey } from './otp-code-key.js';

describe('otpCodeKey', () => {
  it('keys a merchant and an e-mail alike whatever their case, and apart from others', () => {
    expect(otpCodeKey('M-1', 'Alice@Example.com')).toBe('m-1 alice@example.com');
    expect(otpCodeKey('m-1', 'alice@example.com')).toBe(otpCodeKey('M-1', 'ALICE@EXAMPLE.COM'));
    expect(otpCodeKey('m-1', 'bob@example.com')).not.toBe(otpCodeKey('m-2', 'bob@example.com'));
  });
});
