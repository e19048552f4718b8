import { probeOutcome, type Probe } from '../probe.js';
import { callerOf, existsRequest, probeEmail } from '../probe-requests.js';
import { readingOf } from '../rate-limit-reading.js';

/**
 * Compares the rate-limit fields of two answers with caller_id `a` (sending the second when the
 * exists probes left fewer) and of one with a new caller_id `d` (1 or 2 requests).
 */
export const callerSeparateBuckets: Probe = {
  id: 'caller.separate-buckets',
  title: 'requests with one caller_id share a bucket; another caller_id has a bucket of its own',
  unavailable: (options) =>
    options.style === 'none'
      ? '--headers none: no rate-limit fields to read the buckets from'
      : undefined,
  plan: (options) => [
    ...(options.email === undefined
      ? [{ request: existsRequest(probeEmail(options), callerOf(options, 'a')) }]
      : []),
    { request: existsRequest(probeEmail(options), callerOf(options, 'd')) },
  ],
  cost: (context) => (context.state.callerA.length >= 2 ? 1 : 2),
  async run(context, planned) {
    const { options, state } = context;
    const a = callerOf(options, 'a');
    if (state.callerA.length < 2)
      state.callerA.push(await context.send('exists', existsRequest(probeEmail(options), a)));
    const fresh = await context.send('exists', planned.at(-1)!);
    const unanswered = [...state.callerA, fresh].filter(
      (exchange) => exchange.status === undefined,
    );
    if (unanswered.length > 0)
      return probeOutcome(unanswered.map((exchange) => `no answer: ${exchange.error}`));
    const [first, second] = state.callerA.map((exchange) => readingOf(context, exchange));
    const other = readingOf(context, fresh);
    if (first === undefined || second === undefined || other === undefined)
      return {
        skip: 'the answers carry no well-formed rate-limit fields to compare (see headers.rate-limit)',
      };
    const differences: string[] = [];
    if (second.remaining >= first.remaining)
      differences.push(
        `two requests with caller_id ${a} left ${first.remaining} then ${second.remaining}: the second was not counted in the bucket of the first`,
      );
    if (other.remaining !== first.remaining)
      differences.push(
        `the first request with a new caller_id ${callerOf(options, 'd')} left ${other.remaining}, where the first with ${a} left ${first.remaining}: it was not counted in a fresh bucket of its own (is caller_id ignored?)`,
      );
    return probeOutcome(differences);
  },
};
