import type { OpenApiDocument } from '../contract/openapi-types.js';
import type { ConformOptions } from './conform-options.js';
import type { ConformReport, ProbeResult } from './conform-report.js';
import type { ConformSender } from './conform-sender.js';
import { createConformValidator } from './conform-validator.js';
import type { Probe, ProbeContext, ServiceAnswer } from './probe.js';
import { CONFORM_PROBES } from './probe-catalog.js';
import { AdminTokenError, BudgetSpentError, UnreachableError } from './sender-errors.js';

/** Time for the waits of the suite, injected so tests do not sleep. */
export interface ConformClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** What the suite runs with. */
export interface ConformSuite {
  options: ConformOptions;
  sender: ConformSender;
  clock: ConformClock;
  /**
   * The contract the target is held to: the document `uas serve` gives in the expected
   * rate-limit style. The parts a config changes (limits, examples) are not judged; the shapes,
   * statuses and headers are the same for every config.
   */
  contract: OpenApiDocument;
  /** How text the server sent is shown (see {@link ProbeContext.quote}); as it is by default. */
  quote?: (text: string) => string;
}

/** Why the run stopped sending: the target cannot be reached, or the dev API wants a token. */
interface Stop {
  unreachable: string | undefined;
  adminToken: string | undefined;
}

/** Runs the probes in order, each within what is left of the request budget. */
export async function runConformSuite(suite: ConformSuite): Promise<ConformReport> {
  const { options, sender, clock } = suite;
  const answers: ServiceAnswer[] = [];
  const context: ProbeContext = {
    options,
    validator: createConformValidator(suite.contract),
    remaining: () => sender.remaining,
    sleep: (ms) => clock.sleep(ms),
    now: () => clock.now(),
    answers,
    state: { callerA: [], started: false, limited: undefined },
    quote: suite.quote ?? ((text) => text),
    async send(operation, request) {
      const exchange = await sender.send(request);
      if (operation !== 'dev-api') answers.push({ operation, exchange });
      return exchange;
    },
  };
  const stop: Stop = { unreachable: undefined, adminToken: undefined };
  const checks: ProbeResult[] = [];
  for (const probe of CONFORM_PROBES) checks.push(await runProbe(probe, context, sender, stop));
  return { checks, requests: sender.sent, ...stop };
}

/** Runs one probe, or says why it is skipped; a stop it meets is written into `stop`. */
async function runProbe(
  probe: Probe,
  context: ProbeContext,
  sender: ConformSender,
  stop: Stop,
): Promise<ProbeResult> {
  const result: ProbeResult = {
    id: probe.id,
    title: probe.title,
    status: 'skip',
    requests: 0,
    differences: [],
    reason: undefined,
  };
  result.reason = whyNotRun(probe, context, stop);
  if (result.reason !== undefined) return result;
  const before = sender.sent;
  try {
    const outcome = await probe.run(
      context,
      probe.plan(context.options).map((step) => step.request),
    );
    if ('skip' in outcome) result.reason = outcome.skip;
    else {
      result.status = outcome.differences.length === 0 ? 'pass' : 'fail';
      result.differences = outcome.differences;
    }
  } catch (error) {
    if (error instanceof UnreachableError) {
      stop.unreachable = error.message;
      result.reason = 'the target cannot be reached';
    } else if (error instanceof AdminTokenError) {
      stop.adminToken = error.message;
      result.reason = error.message;
    } else if (error instanceof BudgetSpentError) result.reason = error.message;
    else throw error;
  }
  result.requests = sender.sent - before;
  return result;
}

/** Why a probe is not run (undefined: it is): an earlier stop, its options, or its budget. */
function whyNotRun(probe: Probe, context: ProbeContext, stop: Stop): string | undefined {
  if (stop.unreachable !== undefined) return 'the target cannot be reached';
  // A run that must be repeated with the token spends no more of the target's quota.
  if (stop.adminToken !== undefined) return 'not run: the dev API needs an admin token (see above)';
  const unavailable = probe.unavailable(context.options);
  if (unavailable !== undefined) return unavailable;
  const cost = probe.cost(context);
  const left = context.remaining();
  return cost > left
    ? `needs ${cost} request${cost === 1 ? '' : 's'}; ${left} of the budget left (raise --max-requests)`
    : undefined;
}
