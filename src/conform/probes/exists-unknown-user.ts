import { answerDifferences, answerMember } from '../judge-answer.js';
import { probeOutcome, type Probe } from '../probe.js';
import { callerOf, existsRequest, probeEmail } from '../probe-requests.js';

/**
 * Asks exists about an address of this run that no user has (1 request, caller_id `a`); its
 * answer is kept for caller.separate-buckets.
 */
export const existsUnknownUser: Probe = {
  id: 'exists.unknown-user',
  title: 'exists answers 200 {exists: false} for an address no user has',
  unavailable: () => undefined,
  plan: (options) => [{ request: existsRequest(probeEmail(options), callerOf(options, 'a')) }],
  cost: () => 1,
  async run(context, [request]) {
    const { options } = context;
    const exchange = await context.send('exists', request!);
    context.state.callerA.push(exchange);
    const differences = answerDifferences(context, 'exists', exchange, 200);
    if (differences.length === 0 && answerMember(exchange, 'exists') !== false)
      differences.push(
        `expected "exists": false for ${probeEmail(options)}, got ${context.quote(String(JSON.stringify(answerMember(exchange, 'exists'))))}`,
      );
    return probeOutcome(differences);
  },
};
