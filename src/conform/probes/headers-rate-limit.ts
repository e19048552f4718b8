import { judgeRateLimitFields } from '../../contract/rate-limit-fields.js';
import { probeOutcome, type Probe, type ServiceAnswer } from '../probe.js';

/** Answers that reached a bucket, and so must carry its state: 2xx and 4xx but 401. */
const reachedBucket = ({ exchange }: ServiceAnswer) =>
  exchange.status !== undefined &&
  exchange.status !== 401 &&
  ((exchange.status >= 200 && exchange.status < 300) ||
    (exchange.status >= 400 && exchange.status < 500));

/** Sends nothing: judges the rate-limit fields of every answer of the probes before it. */
export const headersRateLimit: Probe = {
  id: 'headers.rate-limit',
  title:
    'every answer that reached a bucket carries well-formed rate-limit fields (structured fields)',
  unavailable: (options) =>
    options.style === 'none' ? '--headers none: no rate-limit fields are expected' : undefined,
  plan: () => [],
  cost: () => 0,
  async run(context) {
    const style = context.options.style;
    if (style === 'none') return { skip: '--headers none' };
    const answers = context.answers.filter(reachedBucket);
    if (answers.length === 0) return { skip: 'no answer reached a bucket' };
    const differences: string[] = [];
    for (const { operation, exchange } of answers) {
      const { problems } = judgeRateLimitFields(style, (name) => exchange.headers.get(name));
      for (const problem of problems)
        differences.push(`${operation} ${exchange.status}: ${context.quote(problem)}`);
    }
    const unique = [...new Set(differences)];
    return probeOutcome(
      unique.length > 8 ? [...unique.slice(0, 8), `… and ${unique.length - 8} more`] : unique,
    );
  },
};
