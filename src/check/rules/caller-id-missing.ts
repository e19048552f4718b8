import { callerIdOf } from '../caller-id-of.js';
import { evidenceOf, plural, type CheckRule } from '../check-rule.js';
import { groupBy } from '../group-by.js';
import type { RequestRecord } from '../../core/records/records.js';

/**
 * Requests with no caller_id at all: they share the client bucket, where one bot can starve every
 * shopper. A request that sent a caller_id in the wrong place is left to
 * `caller-id-wrong-place`, which names the place: one cause, one finding.
 */
export const callerIdMissing: CheckRule = {
  id: 'caller-id-missing',
  severity: 'error',
  spec: '§1 (no caller_id: the client-level bucket, shared by all end-users of the client) and §4 rule 1',
  fix: 'Send caller_id on every request: in the query of exists, in the JSON body of start and verify. Use a value unique per end-user, best the shopper’s IP address taken server-side from the forwarded-for header (§2 caller_id rules 2 and 4).',
  evaluate({ authenticated }) {
    // A body that was not a JSON object was never read, so whether it had a caller_id is unknown.
    const judged = authenticated.filter((record) => record.fields !== undefined);
    if (judged.length === 0)
      return { status: 'not-exercised', reason: 'no authenticated request with readable fields' };
    const missing = judged.filter(
      (record) => callerIdOf(record) === undefined && record.caller_id_misplaced.length === 0,
    );
    if (missing.length === 0) return { status: 'passed' };
    const byOperation = groupBy(missing, (record) => record.operation ?? 'unknown');
    return {
      status: 'failed',
      message: missingMessage(missing, judged.length),
      evidence: evidenceOf(
        missing,
        [...byOperation].map(([operation, records]) => `${operation}: ${records.length}`),
        { judged: judged.length },
      ),
    };
  },
};

/**
 * What the requests without a usable caller_id sent: none at all (the client bucket), or one that
 * is empty or not a text (`12345`, `null`), which is no caller_id either, but not "none".
 */
function missingMessage(missing: readonly RequestRecord[], judged: number): string {
  const unusable = missing.filter(
    (record) => record.fields !== undefined && Object.hasOwn(record.fields, 'caller_id'),
  );
  const head = `${plural(missing.length, 'request')} of ${judged} sent no caller_id`;
  if (unusable.length === 0) return `${head}, so they shared the client bucket`;
  const none = missing.length - unusable.length;
  const sample = JSON.stringify(unusable[0]?.fields?.caller_id) ?? 'undefined';
  const shown = sample.length > 40 ? `${sample.slice(0, 40)}…` : sample;
  return `${head} the service could use: ${
    none === 0 ? '' : `${none} none, so ${none === 1 ? 'it' : 'they'} used the client bucket; `
  }${unusable.length} a caller_id that is empty or not a text (such as ${shown})`;
}
