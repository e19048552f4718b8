import { answerDifferences, pointerDifferences } from '../judge-answer.js';
import { probeOutcome, type Probe } from '../probe.js';
import { needsMerchant } from '../probe-needs.js';
import { callerOf, passwordlessRequest } from '../probe-requests.js';

/** Sends start an e-mail that is not one (1 request): a 400 problem must point at the field. */
export const startInvalidEmail: Probe = {
  id: 'start.invalid-email',
  title: 'start refuses an e-mail that is not one with a 400 problem naming the field',
  unavailable: needsMerchant,
  plan: (options) => [
    {
      request: passwordlessRequest('start', options.merchantId ?? '', {
        email: 'not-an-email',
        caller_id: callerOf(options, 'b'),
      }),
    },
  ],
  cost: () => 1,
  async run(context, [request]) {
    const exchange = await context.send('start', request!);
    const differences = answerDifferences(context, 'start', exchange, 400);
    return probeOutcome(
      differences.length > 0 ? differences : pointerDifferences(context, exchange, '#/email'),
    );
  },
};
