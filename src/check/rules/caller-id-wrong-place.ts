import type { MisplacedCallerId } from '../../core/records/records.js';
import { evidenceOf, plural, type CheckRule } from '../check-rule.js';

/**
 * caller_ids sent where the service does not read them (a header, the query of a POST, the body
 * of the GET, another spelling): the service falls back to the client bucket, and nothing tells
 * the integrator. The emulator records each in `caller_id_misplaced`.
 */
export const callerIdWrongPlace: CheckRule = {
  id: 'caller-id-wrong-place',
  severity: 'error',
  spec: '§2 fields table and §4 endpoints table (caller_id: query parameter of exists, body field of start and verify)',
  fix: 'Send caller_id, spelt exactly so, as a query parameter of GET /v1/users/exists and as a field of the JSON body of start and verify; the service reads no header, no other spelling and no other place.',
  evaluate({ requests }) {
    if (requests.length === 0) return { status: 'not-exercised', reason: 'no service request' };
    const wrong = requests.filter((record) => record.caller_id_misplaced.length > 0);
    if (wrong.length === 0) return { status: 'passed' };
    const places = wrong.flatMap((record) =>
      record.caller_id_misplaced.map((entry) => describePlace(entry, record.method)),
    );
    const ignoredOnly = wrong.filter((record) => record.caller_id === undefined).length;
    return {
      status: 'failed',
      message: `${plural(wrong.length, 'request')} sent a caller_id where the service ignores it (${places[0] ?? 'elsewhere'})${ignoredOnly > 0 ? `; ${ignoredOnly} of them therefore used the client bucket` : ''}`,
      evidence: evidenceOf(wrong, places, { without_caller_id: ignoredOnly }),
    };
  },
};

function describePlace(entry: MisplacedCallerId, method: string): string {
  const where =
    entry.place === 'header'
      ? `header ${entry.name}`
      : entry.place === 'query'
        ? `query parameter ${entry.name} of a ${method}`
        : `body field ${entry.name} of a ${method}`;
  return `${where} = ${JSON.stringify(entry.value)}`;
}
