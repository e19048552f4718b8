import { callerIdOf } from '../caller-id-of.js';
import { evidenceOf, plural, quoted, type CheckRule } from '../check-rule.js';
import { endUserLabel } from '../end-user.js';
import type { RuleContext, RuleVerdict } from '../check-rule.js';
import { drain, filterPaced, groupByPaced, mapPaced, type Steps } from '../paced.js';
import { keysOf } from '../record-keys.js';

/**
 * A caller_id that changes on (nearly) every request of one end-user: a request id, a random
 * value, a fresh session per call. Each request then gets a full bucket of its own and the limit
 * never applies. Judged per end-user, then across them: one shopper whose address changed twice
 * (a phone between networks, IPv4 and IPv6 taking turns) is no pattern, so an end-user counts only
 * with at least three distinct values, and the rule fails only when a good share of the judged
 * end-users do it.
 */
export const callerIdPerRequest: CheckRule = {
  id: 'caller-id-per-request',
  severity: 'error',
  spec: '§2 caller_id rules 1 and 2 (unique per end-user: the same value for all of one user’s requests; recommended values are stable ones)',
  fix: 'Use a value that stays the same for all requests of one end-user (the shopper’s IP address, a session identifier, a customer id), never a request id or a random value; keep it on resends too.',
  evaluate: (context) => drain(perRequestSteps(context)),
  steps: perRequestSteps,
};

function* perRequestSteps({ authenticated, options }: RuleContext): Steps<RuleVerdict> {
  const withCaller = yield* filterPaced(
    authenticated,
    (record) => callerIdOf(record) !== undefined && keysOf(record).endUser !== undefined,
  );
  const endUsers = yield* groupByPaced(withCaller, (record) => keysOf(record).endUser);
  const judged = [...endUsers.values()].filter(
    (records) => records.length >= options.perRequestMinRequests,
  );
  if (judged.length === 0) {
    return {
      status: 'not-exercised',
      reason: `no end-user sent ${options.perRequestMinRequests} or more requests with a caller_id`,
    };
  }
  const described = yield* mapPaced(judged, (records) => ({
    records,
    values: [...new Set(records.map(callerIdOf))] as string[],
  }));
  const changing = described.filter(
    ({ records, values }) =>
      values.length >= 3 && values.length / records.length >= options.perRequestRatio,
  );
  if (changing.length === 0 || changing.length / judged.length < options.perRequestMinShare)
    return { status: 'passed' };
  const first = changing[0]!;
  const who = endUserLabel(first.records[0]!) ?? 'an end-user';
  return {
    status: 'failed',
    message: `caller_id changed on nearly every request of ${changing.length} of ${plural(judged.length, 'end-user')}; ${quoted(who)} sent ${plural(first.values.length, 'value')} in ${plural(first.records.length, 'request')}`,
    evidence: evidenceOf(
      first.records,
      first.values,
      { end_users_judged: judged.length },
      changing.length,
    ),
  };
}
