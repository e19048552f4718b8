import { answerDifferences } from '../judge-answer.js';
import { probeOutcome, type Probe } from '../probe.js';
import { callerOf, existsRequest, inventedToken, probeEmail } from '../probe-requests.js';

/** Sends exists with a made-up token of valid syntax (1 request): the service must refuse it. */
export const authInvalidToken: Probe = {
  id: 'auth.invalid-token',
  title: 'a request with an unknown token is refused with 401',
  unavailable: () => undefined,
  plan: (options) => [
    {
      request: existsRequest(probeEmail(options), callerOf(options, 'auth'), {
        authorization: `Bearer ${inventedToken(options)}`,
      }),
    },
  ],
  cost: () => 1,
  async run(context, [request]) {
    const exchange = await context.send('exists', request!);
    return probeOutcome(answerDifferences(context, 'exists', exchange, 401));
  },
};
