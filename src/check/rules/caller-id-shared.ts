import { callerIdOf } from '../caller-id-of.js';
import { evidenceOf, plural, quoted, shownValue, type CheckRule } from '../check-rule.js';
import type { RequestRecord } from '../../core/records/records.js';
import type { RuleContext, RuleVerdict } from '../check-rule.js';
import { distinctPerGroupPaced, drain, filterPaced, groupByPaced, type Steps } from '../paced.js';
import { keysOf } from '../record-keys.js';
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
  evaluate: (context) => drain(sharedSteps(context)),
  steps: sharedSteps,
};

function* sharedSteps({ authenticated, options }: RuleContext): Steps<RuleVerdict> {
  const limit = options.sharedCallerIdMaxEndUsers;
  const judged = yield* filterPaced(
    authenticated,
    (record) => callerIdOf(record) !== undefined && keysOf(record).endUser !== undefined,
  );
  const endUserOf = (record: RequestRecord) => keysOf(record).endUser;
  // With no more end-users than the limit, a shared value cannot be told from NAT.
  const clients = yield* groupByPaced(judged, (record) => record.client_id);
  const perClient = yield* distinctPerGroupPaced(clients.values(), endUserOf);
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
  const groups = [...(yield* groupByPaced(judged, (record) => keysOf(record).callerKey)).values()];
  const users = yield* distinctPerGroupPaced(groups, endUserOf);
  const shared = groups
    .map((records, index) => ({ records, users: users[index]!, value: callerIdOf(records[0]!)! }))
    .filter((group) => group.users > limit)
    .sort((a, b) => b.users - a.users);
  const worst = shared[0];
  if (worst === undefined) return { status: 'passed' };
  return {
    status: 'failed',
    message: `${plural(shared.length, 'caller_id value')} served more than ${limit} end-users each; ${quoted(worst.value)} served ${worst.users}`,
    evidence: evidenceOf(
      shared.flatMap((group) => group.records),
      shared.map((group) => `${shownValue(group.value)} (${group.users} end-users)`),
      { most_end_users: worst.users },
      shared.length,
    ),
  };
}
