import type { CheckReport, Finding, RuleResult } from './check-report.js';
import { describeEvidenceRequest } from './describe-evidence-request.js';
import { describeSummary } from './describe-summary.js';
import type { ReportContext } from './report-context.js';
import { nothingJudged } from './report-verdict.js';
import { escapeControls } from '../text/escape-controls.js';
import { markdownText as text } from '../text/markdown-text.js';

/**
 * The report as Markdown, for a pull-request comment: a verdict (the command's failure in it,
 * when a command failed; "nothing judged" and why, when no request was), what it could not judge (its warnings), a table of every rule with its
 * status, then each finding with its evidence, spec rule and fix. Text from requests is escaped
 * so that it cannot add links, images, HTML or table cells; values and requests are shown as code.
 */
export function formatReportMarkdown(report: CheckReport, context: ReportContext = {}): string {
  const errors = report.findings.filter((finding) => finding.severity === 'error').length;
  const warnings = report.findings.length - errors;
  const unjudged = nothingJudged(report, context);
  const verdict =
    unjudged !== undefined
      ? 'failed, nothing judged'
      : report.findings.length === 0
        ? 'no findings'
        : `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
  const { command } = context;
  const lines = [
    `### uas check: ${verdict}${command?.failed ? `; ${text(command.message)}` : ''}`,
    '',
    `${text(describeSummary(report.summary))}${command === undefined ? '' : `; ${text(command.message)}`}.`,
    '',
    ...(unjudged === undefined ? [] : [`> ❌ **Failed:** ${text(unjudged)}`, '']),
    ...report.warnings.flatMap((warning) => [`> ⚠️ **Incomplete:** ${text(warning)}`, '']),
    '| Rule | Severity | Status |',
    '| --- | --- | --- |',
    ...report.rules.map(
      (rule) => `| \`${text(rule.rule)}\` | ${rule.severity} | ${status(rule)} |`,
    ),
  ];
  for (const finding of report.findings) lines.push('', ...findingLines(finding));
  lines.push('');
  return lines.join('\n');
}

function status(rule: RuleResult): string {
  if (rule.status === 'passed') return '✅ passed';
  if (rule.status === 'failed') return rule.severity === 'error' ? '❌ failed' : '⚠️ failed';
  return `⏭️ not exercised: ${text(rule.reason ?? 'nothing to judge')}`;
}

function findingLines(finding: Finding): string[] {
  const { evidence } = finding;
  const icon = finding.severity === 'error' ? '❌' : '⚠️';
  const figures = Object.entries(evidence.figures).map(
    ([name, value]) => `${text(name.replace(/_/g, ' '))} ${value}`,
  );
  const lines = [
    `#### ${icon} \`${text(finding.rule)}\` (${finding.severity})`,
    '',
    text(finding.message),
    '',
    `- **Evidence:** ${evidence.count}${figures.length === 0 ? '' : ` (${figures.join(', ')})`}${
      evidence.examples.length === 0
        ? ''
        : `; requests ${evidence.examples.map((id) => `#${id}`).join(', ')}`
    }`,
    ...evidence.values.map((value) => `  - ${code(value)}`),
    ...evidence.requests.map((request) => `  - ${code(describeEvidenceRequest(request))}`),
    `- **Spec:** ${text(finding.spec)}`,
    `- **Docs:** ${code(finding.docs)}`,
    `- **Fix:** ${text(finding.fix)}`,
  ];
  return lines;
}

/** A value as an inline code span, fenced with more backticks than it holds. */
function code(value: string): string {
  const clean = escapeControls(value, { keepNewlines: false });
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = clean.startsWith('`') || clean.endsWith('`') || clean === '' ? ' ' : '';
  return `${fence}${pad}${clean}${pad}${fence}`;
}
