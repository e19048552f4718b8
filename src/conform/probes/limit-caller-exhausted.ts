import { answerDifferences } from '../judge-answer.js';
import { probeOutcome, type Probe } from '../probe.js';
import { needsExhaust } from '../probe-needs.js';
import { callerOf, existsRequest, probeEmail } from '../probe-requests.js';
import { statedQuota } from '../rate-limit-reading.js';

/** What the exhaustion needs: a fresh bucket's quota, then the request it refuses. */
const needed = (quota: number) => quota + 1;

/** Why the exhaustion is skipped when the budget cannot pay for what it needs (as the suite says it). */
const cannotAfford = (quota: number, budget: number) =>
  `needs ${needed(quota)} requests; ${budget} of the budget left (raise --max-requests)`;

/**
 * Sends exists with a fresh caller_id `e` until a 429: at most the quota the answers state, plus
 * one. The 429 is kept for the probes after it.
 */
export const limitCallerExhausted: Probe = {
  id: 'limit.caller-exhausted',
  title: 'a caller bucket runs out: 429 with Retry-After and the documented problem',
  unavailable: needsExhaust,
  plan: (options) => [
    {
      request: existsRequest(probeEmail(options), callerOf(options, 'e')),
      repeat: 'until a 429: at most the quota its first answer states, plus one',
    },
  ],
  // Without a stated quota yet, its first answer tells how many it needs.
  cost: (context) => {
    const quota = statedQuota(context, context.state.callerA);
    return quota === undefined ? 1 : needed(quota);
  },
  async run(context, [request]) {
    const { options } = context;
    const budget = context.remaining();
    let quota = statedQuota(context, context.state.callerA);
    for (let sent = 1; quota === undefined || sent <= needed(quota); sent++) {
      if (context.remaining() === 0)
        return {
          skip: `no 429 within the ${sent - 1} requests the budget allowed, and no answer stated a quota to tell how many it takes (raise --max-requests)`,
        };
      const exchange = await context.send('exists', request!);
      if (exchange.status === 429) {
        context.state.limited = exchange;
        return probeOutcome(answerDifferences(context, 'exists', exchange, 429));
      }
      const differences = answerDifferences(context, 'exists', exchange, 200);
      if (differences.length > 0)
        return probeOutcome(differences.map((line) => `request ${sent}: ${line}`));
      if (quota === undefined) {
        quota = statedQuota(context, [exchange]);
        if (quota !== undefined && needed(quota) > budget)
          return { skip: cannotAfford(quota, budget) };
      }
    }
    return probeOutcome([
      `no 429 after ${needed(quota)} requests with caller_id ${callerOf(options, 'e')}: a fresh bucket holds the ${quota} its answers state`,
    ]);
  },
};
