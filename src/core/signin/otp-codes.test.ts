import { describe, expect, it } from 'vitest';
import { createOtpStore } from './otp-codes.js';

const M = '6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01';

describe('createOtpStore', () => {
  it('verifies a code once, case-insensitively on the e-mail', () => {
    const store = createOtpStore();
    store.issue(M, 'Alice@Example.com', '123456', 0, 1000, 3);
    expect(store.verify(M, 'alice@example.com', '123456', 10).result).toBe('verified');
    expect(store.verify(M, 'alice@example.com', '123456', 20).result).toBe('used');
  });

  it('allows exactly the configured number of wrong attempts', () => {
    const store = createOtpStore();
    store.issue(M, 'a@b.co', '123456', 0, 1000, 3);
    const results = [1, 2, 3, 4].map(() => store.verify(M, 'a@b.co', '000000', 0));
    expect(
      results.map((result) => (result.result === 'wrong' ? result.attemptsLeft : result.result)),
    ).toEqual([2, 1, 0, 'exhausted']);
    expect(store.verify(M, 'a@b.co', '123456', 0).result).toBe('exhausted');
  });

  it('expires a code at its expiry and knows nothing of other merchants', () => {
    const store = createOtpStore();
    store.issue(M, 'a@b.co', '123456', 0, 1000, 3);
    expect(store.verify('other', 'a@b.co', '123456', 0).result).toBe('not-found');
    expect(store.verify(M, 'a@b.co', '123456', 1000).result).toBe('expired');
  });

  it('returns the newest code of an e-mail across merchants', () => {
    const store = createOtpStore();
    store.issue(M, 'a@b.co', '111111', 0, 1000, 3);
    store.issue('m2', 'a@b.co', '222222', 5, 1000, 3);
    expect(store.latest('a@b.co')?.code).toBe('222222');
    expect(store.latest('a@b.co', M)?.code).toBe('111111');
  });
});
