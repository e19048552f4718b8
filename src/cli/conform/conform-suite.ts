import { resolveConfig } from '../../core/config/config.js';
import { createOpenApiDocument } from '../../contract/openapi-document.js';
import { rateLimitHeaderNames } from '../../contract/rate-limit-header-docs.js';
import { createResponseValidator } from '../../contract/response-validator.js';
import { DEMO_CONFIG } from '../../demo-config.js';
import type { Answered, CheckContext, CheckResult, SuiteOptions } from './conform-check.js';
import { CHECKS } from './conform-checks.js';
import {
  AdminTokenError,
  BudgetSpentError,
  UnreachableError,
  type Sender,
} from './conform-sender.js';

/** Time for the waits of the suite, injected so tests do not sleep. */
export interface SuiteClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** What a run of the suite came to. */
export interface SuiteReport {
  checks: CheckResult[];
  /** Requests sent in all. */
  requests: number;
  /** Set when the target could not be reached: why. */
  unreachable: string | undefined;
  /**
   * Set when the dev API wanted an admin token it was not given (or refused the one it was): the
   * run stopped there, a usage error rather than a failure of the target.
   */
  adminToken: string | undefined;
}

/**
 * The contract the suite holds the target to: the document `uas serve` gives for the bundled
 * config in the expected rate-limit style. The parts a config changes (limits, examples) are
 * not judged; the shapes, statuses and headers are the same for every config.
 */
function contractValidator(options: SuiteOptions) {
  const config = resolveConfig({ ...DEMO_CONFIG, behavior: { headers: options.style } });
  // The rate-limit fields are judged apart (headers.rate-limit), with their parse errors.
  const fields = new Set(
    (['draft-10', 'draft-7', 'draft-6', 'x-ratelimit'] as const).flatMap(rateLimitHeaderNames),
  );
  return createResponseValidator(createOpenApiDocument(config), {
    skipHeaders: (name) => fields.has(name),
  });
}

/** Runs the checks in order, each within what is left of the request budget. */
export async function runSuite(
  options: SuiteOptions,
  sender: Sender,
  clock: SuiteClock,
): Promise<SuiteReport> {
  const answers: Answered[] = [];
  const context: CheckContext = {
    options,
    validator: contractValidator(options),
    remaining: () => sender.remaining,
    sleep: (ms) => clock.sleep(ms),
    now: () => clock.now(),
    answers,
    state: { callerA: [], started: false, limited: undefined },
    async send(operation, request) {
      const exchange = await sender.send(request);
      if (operation !== 'dev-api') answers.push({ operation, exchange });
      return exchange;
    },
  };
  const checks: CheckResult[] = [];
  let unreachable: string | undefined;
  let adminToken: string | undefined;
  for (const check of CHECKS) {
    const result: CheckResult = {
      id: check.id,
      title: check.title,
      status: 'skip',
      requests: 0,
      differences: [],
      reason: undefined,
    };
    checks.push(result);
    if (unreachable !== undefined) {
      result.reason = 'the target cannot be reached';
      continue;
    }
    // A run that must be repeated with the token spends no more of the target's quota.
    if (adminToken !== undefined) {
      result.reason = 'not run: the dev API needs an admin token (see above)';
      continue;
    }
    const unavailable = check.unavailable(options);
    if (unavailable !== undefined) {
      result.reason = unavailable;
      continue;
    }
    const cost = check.cost(context);
    if (cost > sender.remaining) {
      result.reason = `needs ${cost} request${cost === 1 ? '' : 's'}; ${sender.remaining} of the budget left (raise --max-requests)`;
      continue;
    }
    const before = sender.sent;
    try {
      const outcome = await check.run(
        context,
        check.plan(context.options).map((step) => step.request),
      );
      if ('skip' in outcome) result.reason = outcome.skip;
      else {
        result.status = outcome.differences.length === 0 ? 'pass' : 'fail';
        result.differences = outcome.differences;
      }
    } catch (error) {
      if (error instanceof UnreachableError) {
        unreachable = error.message;
        result.reason = 'the target cannot be reached';
      } else if (error instanceof AdminTokenError) {
        adminToken = error.message;
        result.reason = error.message;
      } else if (error instanceof BudgetSpentError) result.reason = error.message;
      else throw error;
    }
    result.requests = sender.sent - before;
  }
  return { checks, requests: sender.sent, unreachable, adminToken };
}

export { CHECKS };
