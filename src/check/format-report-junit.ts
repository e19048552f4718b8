import type { CheckReport, Finding } from './check-report.js';
import { junitXml, type JunitCase } from '../text/junit-xml.js';

/**
 * The report as JUnit XML, for CI: one test case per rule, a `<failure>` (typed by severity)
 * when it failed, `<skipped>` when nothing exercised it; and, when the report has warnings (requests
 * it could not judge), one more case, `all-requests-judged`, failed as a warning. Every text is
 * escaped for XML; control characters, which XML 1.0 cannot hold at all, are written as `\xNN`.
 */
export function formatReportJunit(report: CheckReport): string {
  const warnings = report.warnings ?? [];
  const incomplete: JunitCase[] =
    warnings.length === 0
      ? []
      : [
          {
            name: 'all-requests-judged',
            failure: { message: warnings.join('; '), type: 'warn', lines: warnings },
          },
        ];
  return junitXml({ title: 'uas check', name: 'uas check', classname: 'uas.check' }, [
    ...report.rules.map((rule): JunitCase => {
      const finding = report.findings.find((entry) => entry.rule === rule.rule);
      if (rule.status === 'failed' && finding !== undefined)
        return { name: rule.rule, failure: failure(finding) };
      if (rule.status === 'not-exercised')
        return {
          name: rule.rule,
          skipped: `not exercised: ${rule.reason ?? 'nothing to judge'}`,
        };
      return { name: rule.rule };
    }),
    ...incomplete,
  ]);
}

function failure(finding: Finding): JunitCase['failure'] {
  const { evidence } = finding;
  return {
    message: finding.message,
    type: finding.severity,
    lines: [
      finding.message,
      `evidence: ${evidence.count}; requests ${evidence.examples.map((id) => `#${id}`).join(', ') || 'none'}`,
      ...evidence.values.map((value) => `  ${value}`),
      ...Object.entries(evidence.figures).map(([name, value]) => `  ${name}: ${value}`),
      `spec: ${finding.spec}`,
      `fix: ${finding.fix}`,
    ],
  };
}
