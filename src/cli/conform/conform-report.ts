import Table from 'cli-table3';
import type { ChalkInstance } from 'chalk';
import { junitXml } from '../../text/junit-xml.js';
import { escapeControls } from '../../text/escape-controls.js';
import type { CheckResult } from './conform-check.js';
import type { SuiteReport } from './conform-suite.js';

/** What a report says besides the checks. */
export interface ReportHeading {
  target: string;
  style: string;
  maxRequests: number;
}

/** Counts of the checks by result. */
export function countResults(checks: CheckResult[]): {
  passed: number;
  failed: number;
  skipped: number;
} {
  return {
    passed: checks.filter((check) => check.status === 'pass').length,
    failed: checks.filter((check) => check.status === 'fail').length,
    skipped: checks.filter((check) => check.status === 'skip').length,
  };
}

/** Text from a server, on one line, safe for a terminal. */
const safe = (text: string) => escapeControls(text, { keepNewlines: false });

/**
 * The report as a table: each check with its result, the requests it sent, and the differences
 * (a failure) or the reason (a skip); then the counts, on a line of their own.
 */
export function formatReportText(
  report: SuiteReport,
  heading: ReportHeading,
  chalk: ChalkInstance,
  width: number,
): string {
  const detailWidth = Math.max(30, width - 48);
  const table = new Table({
    head: ['check', 'result', 'req', 'difference or reason'].map((cell) => chalk.bold(cell)),
    style: { head: [], border: [] },
    colWidths: [32, 8, 5, detailWidth],
    wordWrap: true,
    // One line between the head and the rows, none between rows.
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const check of report.checks) {
    const result =
      check.status === 'pass'
        ? chalk.green('pass')
        : check.status === 'fail'
          ? chalk.red('FAIL')
          : chalk.yellow('skip');
    const detail =
      check.status === 'fail'
        ? check.differences.map((line) => safe(line)).join('\n')
        : check.status === 'skip'
          ? safe(check.reason ?? '')
          : check.title;
    table.push([check.id, result, String(check.requests), detail]);
  }
  const { passed, failed, skipped } = countResults(report.checks);
  return [
    `uas conform ${safe(heading.target)} (rate-limit fields: ${heading.style})`,
    table.toString(),
    `${report.requests} of ${heading.maxRequests} requests sent`,
    `${passed} passed, ${failed} failed, ${skipped} skipped`,
    '',
  ].join('\n');
}

/** The report as one JSON object, keys in snake_case. */
export function reportToJson(report: SuiteReport, heading: ReportHeading): unknown {
  return {
    target: heading.target,
    style: heading.style,
    ...countResults(report.checks),
    requests: report.requests,
    max_requests: heading.maxRequests,
    unreachable: report.unreachable ?? null,
    admin_token: report.adminToken ?? null,
    checks: report.checks.map((check) => ({
      id: check.id,
      title: check.title,
      result: check.status,
      requests: check.requests,
      differences: check.differences,
      reason: check.reason ?? null,
    })),
  };
}

/**
 * The report as JUnit XML: one test case per check, `<failure>` with every difference, or
 * `<skipped>` with the reason.
 */
export function formatReportJunit(report: SuiteReport, heading: ReportHeading): string {
  return junitXml(
    { title: 'uas conform', name: `uas conform ${heading.target}`, classname: 'uas.conform' },
    report.checks.map((check) => ({
      name: check.id,
      failure:
        check.status === 'fail'
          ? { message: check.differences[0] ?? '', lines: check.differences }
          : undefined,
      skipped: check.status === 'skip' ? (check.reason ?? '') : undefined,
    })),
  );
}
