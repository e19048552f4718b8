import type { Answer, SyncOrAsync } from '../async/maybe-promise.js';
import { decideVerify, verifyOutcome } from './decide-verify.js';
import { latestCode } from './latest-code.js';
import { otpCodeKey } from './otp-code-key.js';

/** A one-time code issued for (merchant, email). */
export interface OtpCode {
  merchantId: string;
  email: string;
  code: string;
  issuedAt: number;
  expiresAt: number;
  attemptsLeft: number;
  used: boolean;
}

/** The outcome of a verification: a value, never an exception. */
export type VerifyOutcome =
  | { result: 'verified'; code: OtpCode }
  | { result: 'not-found' }
  | { result: 'expired'; code: OtpCode }
  | { result: 'used'; code: OtpCode }
  | { result: 'exhausted'; code: OtpCode }
  | { result: 'wrong'; code: OtpCode; attemptsLeft: number };

/**
 * Holds the latest code per (merchant, email). Holds state only; the time comes from the caller.
 * `M` is how it answers: at once (`Sync`, the memory store), or later (a shared store).
 */
export interface OtpStore<M extends Answer = Answer> {
  /** Stores a new code, replacing any earlier one for the same merchant and e-mail. */
  issue(
    merchantId: string,
    email: string,
    code: string,
    now: number,
    ttlMs: number,
    maxAttempts: number,
  ): SyncOrAsync<M, OtpCode>;
  verify(
    merchantId: string,
    email: string,
    candidate: string,
    now: number,
  ): SyncOrAsync<M, VerifyOutcome>;
  /** The latest code for an e-mail, at one merchant or (without one) the most recently issued. */
  latest(email: string, merchantId?: string): SyncOrAsync<M, OtpCode | undefined>;
  list(): SyncOrAsync<M, OtpCode[]>;
  /**
   * Drops the codes of an e-mail (a user removed), at each of `merchantIds` (a shared store
   * cannot list every code; the memory store drops them at any merchant): how many it dropped.
   */
  forget(email: string, merchantIds: readonly string[]): SyncOrAsync<M, number>;
}

/** Creates an in-memory one-time code store. Codes exist only for known users, so it stays small. */
export function createOtpStore(): OtpStore<'sync'> {
  const codes = new Map<string, OtpCode>();
  return {
    issue(merchantId, email, code, now, ttlMs, maxAttempts) {
      const record: OtpCode = {
        merchantId,
        email,
        code,
        issuedAt: now,
        expiresAt: now + ttlMs,
        attemptsLeft: maxAttempts,
        used: false,
      };
      const key = otpCodeKey(merchantId, email);
      codes.delete(key);
      codes.set(key, record);
      return record;
    },
    verify(merchantId, email, candidate, now) {
      const code = codes.get(otpCodeKey(merchantId, email));
      const { result, write } = decideVerify(code, candidate, now);
      if (code !== undefined && write !== undefined) Object.assign(code, write);
      return verifyOutcome(result, code);
    },
    latest(email, merchantId) {
      if (merchantId !== undefined) return codes.get(otpCodeKey(merchantId, email));
      return latestCode(codes.values(), email);
    },
    list: () => [...codes.values()],
    forget(email) {
      let dropped = 0;
      for (const [key, code] of codes)
        if (code.email.toLowerCase() === email.toLowerCase() && codes.delete(key)) dropped++;
      return dropped;
    },
  };
}
