import { answerDifferences } from '../judge-answer.js';
import { probeOutcome, type Probe } from '../probe.js';
import { needsUser } from '../probe-needs.js';
import { callerOf, passwordlessRequest, WRONG_CODE } from '../probe-requests.js';

/** Sends verify a wrong code, once in the whole run (1 request), after start issued a code. */
export const verifyWrongCode: Probe = {
  id: 'verify.wrong-code',
  title: 'verify refuses a wrong code (sent once) with 422 and the documented problem',
  unavailable: needsUser,
  plan: (options) => [
    {
      request: passwordlessRequest('verify', options.merchantId ?? '', {
        email: options.email,
        verification_code: WRONG_CODE,
        caller_id: callerOf(options, 'c'),
      }),
    },
  ],
  cost: () => 1,
  async run(context, [request]) {
    if (!context.state.started) return { skip: 'start.sends-code did not issue a code' };
    const exchange = await context.send('verify', request!);
    return probeOutcome(answerDifferences(context, 'verify', exchange, 422));
  },
};
