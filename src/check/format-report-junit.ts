import type { CheckReport, Finding } from './check-report.js';
import type { CommandOutcome } from './command-outcome.js';
import { describeEvidenceRequest } from './describe-evidence-request.js';
import { failsAt, type ReportContext } from './report-context.js';
import { nothingJudged } from './report-verdict.js';
import { junitXml, type JunitCase } from '../text/junit-xml.js';

/**
 * The report as JUnit XML, for CI: one test case per rule, a `<failure>` (typed by severity)
 * when it failed at `failOn` or worse, `<system-out>` on a passed case for a finding below it,
 * `<skipped>` when nothing exercised it; for `uas check -- <command>`, a test case `command` that
 * fails when the command did; and, when the report has warnings (requests it could not judge),
 * a case `all-requests-judged`, failed at `--fail-on warn`, passed with the warnings in
 * `<system-out>` otherwise; when no request was judged at all, a failed case `requests-judged`
 * that says why. So the suite fails exactly when `uas check` exits 1 for them. Every
 * text is escaped for XML; control characters, which XML 1.0 cannot hold at all, are written as
 * `\xNN`.
 */
export function formatReportJunit(report: CheckReport, context: ReportContext = {}): string {
  const cases = report.rules.map((rule): JunitCase => {
    const finding = report.findings.find((entry) => entry.rule === rule.rule);
    if (rule.status === 'failed' && finding !== undefined)
      return failsAt(finding.severity, context.failOn)
        ? {
            name: rule.rule,
            failure: { message: finding.message, type: finding.severity, lines: lines(finding) },
          }
        : {
            name: rule.rule,
            systemOut: [`${finding.severity}: below --fail-on`, ...lines(finding)],
          };
    if (rule.status === 'not-exercised')
      return {
        name: rule.rule,
        skipped: `not exercised: ${rule.reason ?? 'nothing to judge'}`,
      };
    return { name: rule.rule };
  });
  const warnings = report.warnings;
  if (warnings.length > 0)
    cases.push(
      failsAt('warn', context.failOn)
        ? {
            name: 'all-requests-judged',
            failure: { message: warnings.join('; '), type: 'warn', lines: warnings },
          }
        : { name: 'all-requests-judged', systemOut: ['warn: below --fail-on', ...warnings] },
    );
  const unjudged = nothingJudged(report, context);
  if (unjudged !== undefined)
    cases.push({
      name: 'requests-judged',
      failure: { message: unjudged, type: 'error', lines: [unjudged] },
    });
  if (context.command !== undefined) cases.push(commandCase(context.command));
  return junitXml({ title: 'uas check', name: 'uas check', classname: 'uas.check' }, cases);
}

function lines(finding: Finding): string[] {
  const { evidence } = finding;
  return [
    finding.message,
    `evidence: ${evidence.count}; requests ${evidence.examples.map((id) => `#${id}`).join(', ') || 'none'}`,
    ...evidence.values.map((value) => `  ${value}`),
    ...Object.entries(evidence.figures).map(([name, value]) => `  ${name}: ${value}`),
    ...evidence.requests.map((request) => `  ${describeEvidenceRequest(request)}`),
    `spec: ${finding.spec}`,
    `docs: ${finding.docs}`,
    `fix: ${finding.fix}`,
  ];
}

/** The command run by `uas check -- <command>`, as a test case of its own. */
function commandCase(command: CommandOutcome): JunitCase {
  const detail = [
    command.message,
    `exit code: ${command.exit_code ?? 'none'}; signal: ${command.signal ?? 'none'}; stopped by uas: ${command.stopped_by ?? 'no'}`,
    ...(command.left_running ? ['it left processes running when it exited; uas ended them'] : []),
  ];
  return command.failed
    ? { name: 'command', failure: { message: command.message, type: 'command', lines: detail } }
    : { name: 'command', systemOut: detail };
}
