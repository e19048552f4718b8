import { callerIdOf, callerKeyOf } from '../caller-id-of.js';
import { evidenceOf, plural, quoted, type CheckRule } from '../check-rule.js';
import { endUserOf } from '../end-user.js';
import { groupBy } from '../group-by.js';
import { maxOf } from '../statistics.js';

/**
 * One caller_id value used by more end-users than a household or an office behind one public
 * address would explain: a static value, a server's own address, a merchant id. Those users
 * share one bucket, as if no caller_id were sent.
 */
export const callerIdShared: CheckRule = {
  id: 'caller-id-shared',
  severity: 'error',
  spec: '§2 caller_id rules 1 and 3 (unique per end-user; a static or shared value gives no benefit over omitting it)',
  fix: 'Derive caller_id per end-user: the shopper’s browser IP address from the forwarded-for header (not your server’s or proxy’s), a session identifier, or an internal customer id. Never a constant, a merchant or client id, or your own server address.',
  evaluate({ authenticated, options }) {
    const limit = options.sharedCallerIdMaxEndUsers;
    const judged = authenticated.filter(
      (record) => callerIdOf(record) !== undefined && endUserOf(record) !== undefined,
    );
    const endUsers = (records: typeof judged) => new Set(records.map(endUserOf)).size;
    // With no more end-users than the limit, a shared value cannot be told from NAT.
    const perClient = [...groupBy(judged, (record) => record.client_id).values()].map(endUsers);
    const most = maxOf([0, ...perClient]);
    if (most <= limit) {
      return {
        status: 'not-exercised',
        reason:
          most === 0
            ? 'no request carried both a caller_id and an e-mail or phone number'
            : `at most ${plural(most, 'end-user')} of one client sent a caller_id; sharing shows only above ${limit}`,
      };
    }
    const shared = [...groupBy(judged, callerKeyOf).values()]
      .map((records) => ({ records, users: endUsers(records), value: callerIdOf(records[0]!)! }))
      .filter((group) => group.users > limit)
      .sort((a, b) => b.users - a.users);
    const worst = shared[0];
    if (worst === undefined) return { status: 'passed' };
    return {
      status: 'failed',
      message: `${plural(shared.length, 'caller_id value')} served more than ${limit} end-users each; ${quoted(worst.value)} served ${worst.users}`,
      evidence: evidenceOf(
        shared.flatMap((group) => group.records),
        shared.map((group) => `${group.value} (${group.users} end-users)`),
        { most_end_users: worst.users },
        shared.length,
      ),
    };
  },
};
