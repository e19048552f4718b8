import type { RequestRecord } from '../../core/records/records.js';
import { callerIdOf } from '../caller-id-of.js';
import { evidenceOf, plural, quoted, type CheckRule } from '../check-rule.js';
import type { RuleContext, RuleVerdict } from '../check-rule.js';
import { drain, eachPaced, filterPaced, groupByPaced, type Steps } from '../paced.js';
import { internalRangeOf } from '../internal-address.js';

/**
 * A caller_id that is an internal address: the backend took the socket's peer (its load balancer,
 * its reverse proxy) or the wrong end of the forwarded-for chain. In production every shopper
 * then shares the proxy's bucket. A warning, not an error: on a developer's machine the shopper's
 * browser really is at 127.0.0.1.
 */
export const callerIdInternalIp: CheckRule = {
  id: 'caller-id-internal-ip',
  severity: 'warn',
  spec: '§2 caller_id rules 2 and 4 (the customer’s browser IP address, taken server-side from request headers such as a forwarded-for header)',
  fix: 'Take the shopper’s address from the forwarded-for header: the rightmost entry that is not one of your own proxies (uas exports callerIdFromHeaders for this), not the socket’s remote address. Loopback is expected only while you test from a browser on your own machine.',
  evaluate: (context) => drain(internalIpSteps(context)),
  steps: internalIpSteps,
};

function* internalIpSteps({ authenticated }: RuleContext): Steps<RuleVerdict> {
  const withCaller = yield* filterPaced(
    authenticated,
    (record) => callerIdOf(record) !== undefined,
  );
  if (withCaller.length === 0)
    return { status: 'not-exercised', reason: 'no request carried a caller_id' };
  const internal: { record: RequestRecord; range: string }[] = [];
  // Parsing an address is the dear part, and a caller_id repeats on every request of its user.
  const ranges = new Map<string, string | undefined>();
  yield* eachPaced(withCaller, (record) => {
    const callerId = callerIdOf(record)!;
    if (!ranges.has(callerId)) ranges.set(callerId, internalRangeOf(callerId));
    const range = ranges.get(callerId);
    if (range !== undefined) internal.push({ record, range });
  });
  const first = internal[0];
  if (first === undefined) return { status: 'passed' };
  const values = yield* groupByPaced(internal, ({ record }) => callerIdOf(record));
  return {
    status: 'failed',
    message: `${plural(internal.length, 'request')} used an internal address as caller_id (${plural(values.size, 'value')}, such as ${quoted(callerIdOf(first.record)!)}, ${first.range})`,
    evidence: evidenceOf(
      internal.map(({ record }) => record),
      [...values].map(([value, [entry]]) => `${value} (${entry!.range})`),
      { values: values.size },
    ),
  };
}
