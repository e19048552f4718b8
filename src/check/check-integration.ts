import type { RequestRecord } from '../core/records/records.js';
import { resolveCheckOptions, type CheckOptions } from './check-options.js';
import type { CheckReport, Finding, RuleResult } from './check-report.js';
import { oldestFirst, type RuleContext } from './check-rule.js';
import { groupLogicalRequestsSteps } from './logical-requests.js';
import { primeRecordKeys } from './record-keys.js';
import { evidenceRequests } from './evidence-requests.js';
import { CHECK_RULES } from './rule-catalog.js';
import { ruleDocsLink } from './rule-docs.js';
import { summarizeRequestsSteps } from './summarize-requests.js';

/**
 * Judges an integration from what it sent: every rule of {@link CHECK_RULES} over the service
 * requests among `records` (dev-API and unrouted requests are ignored). Pure: the same records
 * in any order give the same report (the journal lists newest first, a recording oldest first).
 * Findings come worst first; every rule is listed, and a rule nothing exercised says so.
 */
export function checkIntegration(
  records: readonly RequestRecord[],
  options: CheckOptions = {},
): CheckReport {
  const steps = checkSteps(records, options);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/**
 * {@link checkIntegration}, awaiting `pause` between its steps (each rule is one), so that a
 * server answering it on a large journal goes on answering other requests meanwhile. `pause` is
 * the transport's (it resolves on a later turn of its event loop); the check itself stays pure.
 */
export async function checkIntegrationPaced(
  records: readonly RequestRecord[],
  options: CheckOptions,
  pause: () => Promise<void>,
): Promise<CheckReport> {
  const steps = checkSteps(records, options);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
    await pause();
  }
}

/** The work of {@link checkIntegration}, one step at a time: a yield between steps. */
function* checkSteps(
  records: readonly RequestRecord[],
  options: CheckOptions,
): Generator<void, CheckReport> {
  const resolved = resolveCheckOptions(options);
  if (!Array.isArray(records))
    throw new TypeError(
      'checkIntegration expects the request records, an array (such as emulator.journal())',
    );
  const requests = records.filter((record) => record.operation !== undefined).sort(oldestFirst);
  yield;
  // What several rules read of every record, worked out once, a slice at a time.
  yield* primeRecordKeys(requests);
  const logical = yield* groupLogicalRequestsSteps(requests, resolved);
  yield;
  const context: RuleContext = {
    requests,
    authenticated: requests.filter((record) => record.client_id !== undefined),
    logical,
    options: resolved,
  };
  yield;
  const findings: Finding[] = [];
  const rules: RuleResult[] = [];
  for (const rule of CHECK_RULES) {
    yield;
    const verdict = rule.steps === undefined ? rule.evaluate(context) : yield* rule.steps(context);
    const { id, severity } = rule;
    if (verdict.status === 'failed') {
      const { message } = verdict;
      const { shown, ...evidence } = verdict.evidence;
      findings.push({
        rule: id,
        severity,
        message,
        spec: rule.spec,
        docs: ruleDocsLink(id),
        fix: rule.fix,
        evidence: { ...evidence, requests: evidenceRequests(shown) },
      });
      rules.push({ rule: id, severity, status: 'failed' });
    } else if (verdict.status === 'not-exercised') {
      rules.push({ rule: id, severity, status: 'not-exercised', reason: verdict.reason });
    } else {
      rules.push({ rule: id, severity, status: 'passed' });
    }
  }
  const order = (finding: Finding) => CHECK_RULES.findIndex((rule) => rule.id === finding.rule);
  // Worst first: errors, then warnings; within one severity, catalog order (counts are of
  // different things from rule to rule, so they do not compare).
  findings.sort(
    (a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || order(a) - order(b),
  );
  yield;
  return {
    summary: yield* summarizeRequestsSteps(requests, logical, records.length - requests.length),
    findings,
    rules,
    warnings: [],
  };
}

const SEVERITY_RANK = { error: 0, warn: 1 } as const;
