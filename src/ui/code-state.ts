import type { CodeRecord } from '../core/records/records.js';
import { formatDuration } from './format.js';

/**
 * The state of a code at `now` (the emulator's time): verified, dead (replaced by a newer code of
 * its e-mail and merchant, expired or out of attempts), or live; with `now` not known yet,
 * whether it expired is not said.
 */
export function codeState(code: CodeRecord, now: number | undefined, replaced = false): string {
  if (code.used) return 'verified';
  if (replaced) return 'dead: replaced by a newer code';
  if (now !== undefined && Date.parse(code.expires_at) <= now) return 'dead: expired';
  if (code.attempts_left <= 0) return 'dead: no attempts left';
  if (now === undefined) return '…';
  return `live, expires in ${formatDuration(Date.parse(code.expires_at) - now)}`;
}

/**
 * The codes of `codes` (newest first) that a newer one of the same e-mail and merchant replaced,
 * found in one pass: the inbox asks on every live update, of up to 1,000 codes.
 */
export function replacedCodes(codes: readonly CodeRecord[]): ReadonlySet<CodeRecord> {
  const seen = new Set<string>();
  const replaced = new Set<CodeRecord>();
  for (const code of codes) {
    const signIn = `${code.merchant_id}|${code.email.toLowerCase()}`;
    if (seen.has(signIn)) replaced.add(code);
    else seen.add(signIn);
  }
  return replaced;
}
