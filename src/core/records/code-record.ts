import type { OtpCode } from '../signin/otp-codes.js';
import type { CodeRecord } from './records.js';

/** A code as the dev API and the event stream report it. */
export function codeRecord(code: OtpCode): CodeRecord {
  return {
    merchant_id: code.merchantId,
    email: code.email,
    code: code.code,
    issued_at: new Date(code.issuedAt).toISOString(),
    expires_at: new Date(code.expiresAt).toISOString(),
    attempts_left: code.attemptsLeft,
    used: code.used,
  };
}
