import type { CodeRecord } from '../core/records/records.js';
import { formatDuration } from './format.js';

/** The state of a code at `now`: verified, dead (expired or out of attempts), or live. */
export function codeState(code: CodeRecord, now: number): string {
  if (code.used) return 'verified';
  if (Date.parse(code.expires_at) <= now) return 'dead: expired';
  if (code.attempts_left <= 0) return 'dead: no attempts left';
  return `live, expires in ${formatDuration(Date.parse(code.expires_at) - now)}`;
}
