import type { CheckReport, Finding } from './check-report.js';
import { escapeControls } from '../text/escape-controls.js';

/**
 * The report as JUnit XML, for CI: one test case per rule, a `<failure>` (typed by severity)
 * when it failed, `<skipped>` when nothing exercised it. Every text is escaped for XML; control
 * characters, which XML 1.0 cannot hold at all, are written as `\xNN`.
 */
export function formatReportJunit(report: CheckReport): string {
  const failures = report.rules.filter((rule) => rule.status === 'failed').length;
  const skipped = report.rules.filter((rule) => rule.status === 'not-exercised').length;
  const counts = `tests="${report.rules.length}" failures="${failures}" errors="0" skipped="${skipped}"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="uas check" ${counts}>`,
    `  <testsuite name="uas check" ${counts}>`,
  ];
  for (const rule of report.rules) {
    const open = `    <testcase classname="uas.check" name="${xml(rule.rule)}"`;
    const finding = report.findings.find((entry) => entry.rule === rule.rule);
    if (rule.status === 'failed' && finding !== undefined) {
      lines.push(`${open}>`, ...failure(finding), '    </testcase>');
    } else if (rule.status === 'not-exercised') {
      lines.push(
        `${open}>`,
        `      <skipped message="${xml(`not exercised: ${rule.reason ?? 'nothing to judge'}`)}"/>`,
        '    </testcase>',
      );
    } else {
      lines.push(`${open}/>`);
    }
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}

function failure(finding: Finding): string[] {
  const { evidence } = finding;
  const body = [
    finding.message,
    `evidence: ${evidence.count}; requests ${evidence.examples.map((id) => `#${id}`).join(', ') || 'none'}`,
    ...evidence.values.map((value) => `  ${value}`),
    ...Object.entries(evidence.figures).map(([name, value]) => `  ${name}: ${value}`),
    `spec: ${finding.spec}`,
    `fix: ${finding.fix}`,
  ];
  return [
    `      <failure type="${finding.severity}" message="${xml(finding.message)}">${body.map(xml).join('\n')}</failure>`,
  ];
}

/** Escapes text for XML content and attributes, after making control characters visible. */
function xml(text: string): string {
  return (
    escapeControls(text, { keepNewlines: false })
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
      // A lone surrogate, U+FFFE and U+FFFF are not XML characters either.
      .replace(
        /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[\ufffe\uffff]/g,
        '\ufffd',
      )
  );
}
