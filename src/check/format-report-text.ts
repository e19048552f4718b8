import type { CheckReport, CheckSummary, DelayStats, Finding, RuleResult } from './check-report.js';
import { describeEvidenceRequest } from './describe-evidence-request.js';
import { describeSummary } from './describe-summary.js';
import { formatDelay } from '../text/duration.js';
import { escapeControls } from '../text/escape-controls.js';
import type { ReportColors } from './report-colors.js';
import type { ReportContext } from './report-context.js';

// Every text of a report may come from a request (messages quote caller_ids and e-mails), and a
// report may have been read back from a file: all of it is escaped, and kept on one line.
const clean = (text: string) => escapeControls(text, { keepNewlines: false });

/**
 * The report for a terminal: the findings grouped by rule, worst first, each with its evidence,
 * spec rule and fix; then the rules not exercised and those passed; what it could not judge (the
 * report's warnings); the seed of the emulator's chaos, when given; a summary line last. Every value from a request is escaped of control
 * characters.
 */
export function formatReportText(
  report: CheckReport,
  colors: ReportColors,
  context: Pick<ReportContext, 'seed'> = {},
): string {
  const lines: string[] = [];
  for (const finding of report.findings) lines.push(...findingLines(finding, colors), '');
  const skipped = report.rules.filter((rule) => rule.status === 'not-exercised');
  if (skipped.length > 0) {
    lines.push(colors.bold('Not exercised'));
    for (const rule of skipped)
      lines.push(
        colors.dim(`  - ${clean(rule.rule)}: ${clean(rule.reason ?? 'nothing to judge')}`),
      );
    lines.push('');
  }
  const passed = report.rules.filter((rule) => rule.status === 'passed');
  if (passed.length > 0) {
    lines.push(
      `${colors.bold('Passed')} ${colors.green(passed.map((rule) => clean(rule.rule)).join(', '))}`,
    );
  }
  const retries = retryLine(report.summary);
  if (retries !== undefined) lines.push(colors.dim(retries));
  for (const warning of report.warnings)
    lines.push(`${colors.yellow(colors.bold('incomplete:'))} ${clean(warning)}`);
  if (context.seed !== undefined)
    lines.push(colors.dim(`seed ${context.seed}: --seed ${context.seed} replays this run's chaos`));
  lines.push(summaryLine(report, colors));
  return lines.join('\n');
}

function findingLines(finding: Finding, colors: ReportColors): string[] {
  const { evidence } = finding;
  const label =
    finding.severity === 'error' ? colors.red(colors.bold('error')) : colors.yellow('warn ');
  const figures = Object.entries(evidence.figures).map(
    ([name, value]) => `${clean(name).replace(/_/g, ' ')} ${value}`,
  );
  const lines = [
    `${label} ${colors.bold(clean(finding.rule))}`,
    `  ${clean(finding.message)}`,
    `  ${colors.dim('evidence:')} ${evidence.count}${figures.length === 0 ? '' : ` (${figures.join(', ')})`}${
      evidence.examples.length === 0
        ? ''
        : `; requests ${evidence.examples.map((id) => `#${id}`).join(', ')}`
    }`,
  ];
  for (const value of evidence.values) lines.push(`    ${clean(value)}`);
  for (const request of evidence.requests)
    lines.push(colors.dim(`    ${clean(describeEvidenceRequest(request))}`));
  lines.push(`  ${colors.dim('spec:')} ${clean(finding.spec)}`);
  lines.push(`  ${colors.dim('docs:')} ${clean(finding.docs)}`);
  lines.push(`  ${colors.dim('fix:')} ${clean(finding.fix)}`);
  return lines;
}

function retryLine(summary: CheckSummary): string | undefined {
  const delays = summary.retry_delay_ms;
  if (delays === null) return undefined;
  const beyond = summary.retry_delay_beyond_retry_after_ms;
  return `retry delays ${stats(delays)}${beyond === null ? '' : `; beyond Retry-After ${stats(beyond)}`}`;
}

function stats(delays: DelayStats): string {
  return `min ${formatDelay(delays.min)}, median ${formatDelay(delays.median)}, max ${formatDelay(delays.max)} (${delays.count})`;
}

/** One line: what was checked, and the verdict in counts. */
function summaryLine(report: CheckReport, colors: ReportColors): string {
  const checked = clean(describeSummary(report.summary));
  const count = (status: RuleResult['status']) =>
    report.rules.filter((rule) => rule.status === status).length;
  const errors = report.findings.filter((finding) => finding.severity === 'error').length;
  const warnings = report.findings.length - errors;
  const verdict = [
    errors > 0 ? colors.red(`${errors} error${errors === 1 ? '' : 's'}`) : '0 errors',
    warnings > 0 ? colors.yellow(`${warnings} warning${warnings === 1 ? '' : 's'}`) : '0 warnings',
    colors.green(`${count('passed')} passed`),
    colors.dim(`${count('not-exercised')} not exercised`),
  ].join(', ');
  return `${colors.bold('uas check:')} ${verdict}; ${checked}`;
}
