import { evidenceOf, plural, type CheckRule } from '../check-rule.js';
import { groupBy } from '../group-by.js';

/** Requests refused for a missing, malformed or unknown token: nothing of them was run or read. */
export const unauthenticated: CheckRule = {
  id: 'unauthenticated',
  severity: 'error',
  spec: '§5 rules 1 and 2 (every request sends Authorization: Bearer <ACCESS_TOKEN>, which attributes it to a clientId)',
  fix: 'Send Authorization: Bearer <token> on every request, with the token of your client (for the emulator, one from the clients of its config); check that it is read from your configuration and not empty.',
  evaluate({ requests }) {
    if (requests.length === 0) return { status: 'not-exercised', reason: 'no service request' };
    const refused = requests.filter((record) => record.status === 401);
    if (refused.length === 0) return { status: 'passed' };
    const routes = groupBy(refused, (record) => `${record.method} ${record.path}`);
    return {
      status: 'failed',
      message: `${refused.length} of ${plural(requests.length, 'request')} ${refused.length === 1 ? 'was' : 'were'} refused 401 for a missing or wrong token`,
      evidence: evidenceOf(
        refused,
        [...routes].map(([route, records]) => `${route}: ${records.length}`),
        { requests: requests.length },
      ),
    };
  },
};
