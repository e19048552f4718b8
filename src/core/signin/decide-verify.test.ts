import { describe, expect, it } from 'vitest';
import { VERIFY_CASES, type VerifyCase } from '../../../test/helpers/decision-cases.js';
import { decideVerify, verifyOutcome } from './decide-verify.js';
import { createOtpStore } from './otp-codes.js';

/** The code kept after a try: the one of the table with the write applied. */
function after(row: VerifyCase) {
  if (row.kept === undefined) return undefined;
  const { write } = decideVerify(row.kept, row.candidate, row.now);
  return {
    attemptsLeft: write?.attemptsLeft ?? row.kept.attemptsLeft,
    used: write?.used ?? row.kept.used,
  };
}

describe('decideVerify', () => {
  it.each(VERIFY_CASES)('$name', (row) => {
    expect(decideVerify(row.kept, row.candidate, row.now).result).toBe(row.expected.result);
    expect(after(row)).toEqual(row.expected.after);
  });

  it('writes nothing unless the code was compared', () => {
    for (const row of VERIFY_CASES) {
      const { result, write } = decideVerify(row.kept, row.candidate, row.now);
      expect(write === undefined, row.name).toBe(!['verified', 'wrong'].includes(result));
    }
  });
});

describe('verifyOutcome', () => {
  it('says how many attempts a wrong code leaves, and nothing of a code not found', () => {
    const code = {
      ...{ merchantId: 'm', email: 'a@b.co', code: '1', issuedAt: 0, expiresAt: 1 },
      ...{ attemptsLeft: 2, used: false },
    };
    expect(verifyOutcome('wrong', code)).toEqual({ result: 'wrong', code, attemptsLeft: 2 });
    expect(verifyOutcome('expired', code)).toEqual({ result: 'expired', code });
    expect(verifyOutcome('not-found', code)).toEqual({ result: 'not-found' });
    expect(verifyOutcome('verified', undefined)).toEqual({ result: 'not-found' });
  });
});

describe('the memory code store', () => {
  it.each(VERIFY_CASES)('$name', (row) => {
    const store = createOtpStore();
    const { kept } = row;
    if (kept !== undefined) {
      const issued = store.issue(kept.merchantId, kept.email, kept.code, kept.issuedAt, 0, 0);
      Object.assign(issued, kept);
    }
    const merchant = kept?.merchantId ?? 'm';
    const email = kept?.email ?? 'a@b.co';
    const outcome = store.verify(merchant, email, row.candidate, row.now);
    expect(outcome.result).toBe(row.expected.result);
    const code = store.latest(email, merchant);
    expect(
      code === undefined ? undefined : { attemptsLeft: code.attemptsLeft, used: code.used },
    ).toEqual(row.expected.after);
    if (outcome.result === 'wrong')
      expect(outcome.attemptsLeft).toBe(row.expected.after?.attemptsLeft);
  });
});
