import { answerDifferences } from '../judge-answer.js';
import { probeOutcome, type Probe } from '../probe.js';
import { needsUser } from '../probe-needs.js';
import { callerOf, passwordlessRequest } from '../probe-requests.js';

/**
 * Starts a sign-in for the user of --email (1 request, caller_id `c`): a code is sent to a real
 * user. Whether it was issued is kept for the verify probes.
 */
export const startSendsCode: Probe = {
  id: 'start.sends-code',
  title: 'start answers 200 with the documented body for the user of --email',
  unavailable: needsUser,
  plan: (options) => [
    {
      request: passwordlessRequest('start', options.merchantId ?? '', {
        email: options.email,
        caller_id: callerOf(options, 'c'),
      }),
    },
  ],
  cost: () => 1,
  async run(context, [request]) {
    const exchange = await context.send('start', request!);
    const differences = answerDifferences(context, 'start', exchange, 200);
    context.state.started = exchange.status === 200;
    return probeOutcome(differences);
  },
};
