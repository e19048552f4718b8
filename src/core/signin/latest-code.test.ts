import { describe, expect, it } from 'vitest';
import { latestCode } from './latest-code.js';
import type { OtpCode } from './otp-codes.js';

const code = (merchantId: string, email: string, issuedAt: number): OtpCode => ({
  ...{ merchantId, email, code: `${merchantId}-${issuedAt}`, issuedAt, expiresAt: issuedAt + 1 },
  ...{ attemptsLeft: 3, used: false },
});

describe('latestCode', () => {
  it('finds the code issued last to an e-mail at any merchant, whatever the case', () => {
    const codes = [code('m1', 'a@b.co', 5), code('m2', 'A@B.co', 9), code('m3', 'c@d.co', 99)];
    expect(latestCode(codes, 'a@b.CO')?.code).toBe('m2-9');
  });

  it('takes the later of two issued at the same time, and nothing for an e-mail without one', () => {
    const codes = [code('m1', 'a@b.co', 5), code('m2', 'a@b.co', 5)];
    expect(latestCode(codes, 'a@b.co')?.merchantId).toBe('m2');
    expect(latestCode(codes, 'x@y.co')).toBeUndefined();
    expect(latestCode([], 'a@b.co')).toBeUndefined();
  });
});
