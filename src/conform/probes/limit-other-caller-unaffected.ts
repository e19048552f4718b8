import { answerDifferences } from '../judge-answer.js';
import { probeOutcome, type Probe } from '../probe.js';
import { needsExhaust } from '../probe-needs.js';
import { callerOf, existsRequest, probeEmail } from '../probe-requests.js';

/** Right after limit.caller-exhausted's 429, sends exists with another caller_id `f` (1 request). */
export const limitOtherCallerUnaffected: Probe = {
  id: 'limit.other-caller-unaffected',
  title: 'right after that 429, a request with another caller_id is answered 200',
  unavailable: needsExhaust,
  plan: (options) => [{ request: existsRequest(probeEmail(options), callerOf(options, 'f')) }],
  cost: () => 1,
  async run(context, [request]) {
    if (context.state.limited === undefined) return { skip: 'limit.caller-exhausted got no 429' };
    const exchange = await context.send('exists', request!);
    return probeOutcome(answerDifferences(context, 'exists', exchange, 200));
  },
};
