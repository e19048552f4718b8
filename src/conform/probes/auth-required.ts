import { answerDifferences } from '../judge-answer.js';
import { probeOutcome, type Probe } from '../probe.js';
import { callerOf, existsRequest, probeEmail } from '../probe-requests.js';

/** Sends exists with no Authorization at all (1 request): the service must ask for a Bearer token. */
export const authRequired: Probe = {
  id: 'auth.required',
  title: 'a request without Authorization is refused with 401 and a Bearer challenge',
  unavailable: () => undefined,
  plan: (options) => [
    { request: existsRequest(probeEmail(options), callerOf(options, 'auth'), 'none') },
  ],
  cost: () => 1,
  async run(context, [request]) {
    const exchange = await context.send('exists', request!);
    return probeOutcome(answerDifferences(context, 'exists', exchange, 401));
  },
};
