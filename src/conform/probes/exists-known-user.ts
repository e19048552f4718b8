import { answerDifferences, answerMember } from '../judge-answer.js';
import { probeOutcome, type Probe } from '../probe.js';
import { needsEmail } from '../probe-needs.js';
import { callerOf, existsRequest } from '../probe-requests.js';

/**
 * Asks exists about the user of --email (1 request, caller_id `a`); its answer is kept for
 * caller.separate-buckets.
 */
export const existsKnownUser: Probe = {
  id: 'exists.known-user',
  title: 'exists answers 200 {exists: true} for the user of --email',
  unavailable: needsEmail,
  plan: (options) => [{ request: existsRequest(options.email ?? '', callerOf(options, 'a')) }],
  cost: () => 1,
  async run(context, [request]) {
    const email = context.options.email as string;
    const exchange = await context.send('exists', request!);
    context.state.callerA.push(exchange);
    const differences = answerDifferences(context, 'exists', exchange, 200);
    if (differences.length === 0 && answerMember(exchange, 'exists') !== true)
      differences.push(
        `expected "exists": true for ${email} (--email), got ${context.quote(String(JSON.stringify(answerMember(exchange, 'exists'))))}`,
      );
    return probeOutcome(differences);
  },
};
