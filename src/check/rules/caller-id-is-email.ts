import { callerIdOf } from '../caller-id-of.js';
import { evidenceOf, plural, type CheckRule } from '../check-rule.js';

/**
 * A caller_id equal to the request's e-mail (or the phone number of an exists by phone): personal
 * data in a rate-limit key, and a key anyone knows, so anyone can empty a victim's bucket by
 * sending requests with their address and lock them out of signing in.
 */
export const callerIdIsEmail: CheckRule = {
  id: 'caller-id-is-email',
  severity: 'warn',
  spec: '§2 caller_id rule 2 (recommended values: the browser IP address, a session identifier, an internal customer identifier)',
  fix: 'Use the shopper’s IP address or a session identifier as caller_id; if you key by account, use an opaque internal customer id, never the e-mail or phone number itself.',
  evaluate({ authenticated }) {
    const judged = authenticated.filter(
      (record) =>
        callerIdOf(record) !== undefined &&
        (record.email !== undefined || record.phone_number !== undefined),
    );
    if (judged.length === 0) {
      return {
        status: 'not-exercised',
        reason: 'no request carried both a caller_id and an e-mail or phone number',
      };
    }
    const same = judged.filter((record) => {
      const callerId = callerIdOf(record)!.trim().toLowerCase();
      return (
        callerId === record.email?.trim().toLowerCase() ||
        callerId === record.phone_number?.trim().toLowerCase()
      );
    });
    if (same.length === 0) return { status: 'passed' };
    return {
      status: 'failed',
      message: `${plural(same.length, 'request')} of ${judged.length} used the end-user’s e-mail or phone number as caller_id`,
      evidence: evidenceOf(
        same,
        same.map((record) => callerIdOf(record)!),
        { judged: judged.length },
      ),
    };
  },
};
