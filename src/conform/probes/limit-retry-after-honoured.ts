import { readRetryAfter } from '../../client/retry-after.js';
import { answerDifferences } from '../judge-answer.js';
import { probeOutcome, type Probe } from '../probe.js';
import { needsExhaust } from '../probe-needs.js';
import { callerOf, existsRequest, probeEmail } from '../probe-requests.js';

/**
 * Waits the Retry-After of limit.caller-exhausted's 429 (on the injected clock, at most
 * --max-wait), then sends exists with the limited caller_id `e` again (1 request).
 */
export const limitRetryAfterHonoured: Probe = {
  id: 'limit.retry-after-honoured',
  title: 'waiting Retry-After lets the next request of the limited caller_id through',
  unavailable: needsExhaust,
  plan: (options) => [
    {
      request: existsRequest(probeEmail(options), callerOf(options, 'e')),
      repeat: 'once, after waiting Retry-After',
    },
  ],
  cost: () => 1,
  async run(context, [request]) {
    const limited = context.state.limited;
    if (limited === undefined) return { skip: 'limit.caller-exhausted got no 429' };
    const value = limited.headers.get('retry-after');
    const waitMs = readRetryAfter(value, context.now());
    if (waitMs === undefined)
      return {
        skip: `the 429 had no readable Retry-After (${value === null ? 'none' : context.quote(JSON.stringify(value))})`,
      };
    if (waitMs > context.options.maxWaitMs)
      return {
        skip: `Retry-After ${context.quote(JSON.stringify(value))} asks for longer than --max-wait (${context.options.maxWaitMs / 1000} s)`,
      };
    await context.sleep(waitMs);
    const exchange = await context.send('exists', request!);
    return probeOutcome(
      answerDifferences(context, 'exists', exchange, 200).map(
        (line) => `after waiting Retry-After ${context.quote(String(value))} s: ${line}`,
      ),
    );
  },
};
