import { constantTimeEqual } from './constant-time.js';
import type { OtpCode, VerifyOutcome } from './otp-codes.js';

/** What a verification can answer. */
export type VerifyResult = VerifyOutcome['result'];

/** What a verification writes to its code: the attempts left, and whether it is used. */
export interface CodeWrite {
  attemptsLeft: number;
  used: boolean;
}

/**
 * The verdict on a code tried against the code kept (undefined: none), at `now`, and what to
 * write to the kept code after it (undefined: nothing). Pure: the memory store applies it, and
 * the Redis store's verify script decides alike, in the same order (a used code, then one out of
 * attempts, then an expired one; only then is the code compared, in constant time, and a wrong
 * one spends an attempt). A test holds the two to the same answers.
 */
export function decideVerify(
  kept: OtpCode | undefined,
  candidate: string,
  now: number,
): { result: VerifyResult; write: CodeWrite | undefined } {
  if (kept === undefined) return { result: 'not-found', write: undefined };
  if (kept.used) return { result: 'used', write: undefined };
  if (kept.attemptsLeft <= 0) return { result: 'exhausted', write: undefined };
  if (now >= kept.expiresAt) return { result: 'expired', write: undefined };
  if (constantTimeEqual(kept.code, candidate))
    return { result: 'verified', write: { attemptsLeft: kept.attemptsLeft, used: true } };
  return { result: 'wrong', write: { attemptsLeft: kept.attemptsLeft - 1, used: false } };
}

/** The outcome a verification answers, from its result and the code after it. */
export function verifyOutcome(result: VerifyResult, code: OtpCode | undefined): VerifyOutcome {
  if (result === 'not-found' || code === undefined) return { result: 'not-found' };
  if (result === 'wrong') return { result, code, attemptsLeft: code.attemptsLeft };
  return { result, code };
}
