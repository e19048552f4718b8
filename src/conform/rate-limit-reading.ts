import { judgeRateLimitFields } from '../contract/rate-limit-fields.js';
import type { RateLimitReading } from '../contract/rate-limit-judgement.js';
import type { ProbeExchange } from './conform-sender.js';
import type { ProbeContext } from './probe.js';

/** What the rate-limit fields of an answer say, when they are well-formed. */
export function readingOf(
  context: ProbeContext,
  exchange: ProbeExchange,
): RateLimitReading | undefined {
  if (context.options.style === 'none' || exchange.status === undefined) return undefined;
  return judgeRateLimitFields(context.options.style, (name) => exchange.headers.get(name)).reading;
}

/** The quota of a caller bucket that the first of these answers to state one states. */
export function statedQuota(context: ProbeContext, exchanges: ProbeExchange[]): number | undefined {
  return exchanges
    .map((exchange) => readingOf(context, exchange)?.limit)
    .find((limit) => limit !== undefined);
}
