import { answerDifferences, pointerDifferences } from '../judge-answer.js';
import { probeOutcome, type Probe } from '../probe.js';
import { callerOf, existsRequest } from '../probe-requests.js';

/** Sends exists an e-mail that is not one (1 request): a 400 problem must point at the field. */
export const existsInvalidEmail: Probe = {
  id: 'exists.invalid-email',
  title: 'exists refuses an e-mail that is not one with a 400 problem naming the field',
  unavailable: () => undefined,
  plan: (options) => [{ request: existsRequest('not-an-email', callerOf(options, 'b')) }],
  cost: () => 1,
  async run(context, [request]) {
    const exchange = await context.send('exists', request!);
    const differences = answerDifferences(context, 'exists', exchange, 400);
    return probeOutcome(
      differences.length > 0 ? differences : pointerDifferences(context, exchange, '#/email'),
    );
  },
};
