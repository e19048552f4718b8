import Table from 'cli-table3';
import type { ChalkInstance } from 'chalk';
import { escapeControls } from '../text/escape-controls.js';
import { countResults, type ConformHeading, type ConformReport } from './conform-report.js';

/** Text from a server, on one line, safe for a terminal. */
const safe = (text: string) => escapeControls(text, { keepNewlines: false });

/**
 * The report as a table: each probe with its result, the requests it sent, and the differences
 * (a failure) or the reason (a skip); then the counts, on a line of their own.
 */
export function formatConformText(
  report: ConformReport,
  heading: ConformHeading,
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
