import type { RequestRecord } from '../core/records/records.js';
import { CheckFailedError } from './check-failed-error.js';
import { checkIntegration } from './check-integration.js';
import type { CheckOptions } from './check-options.js';
import type { CheckReport, Severity } from './check-report.js';
import { formatReportText } from './format-report-text.js';
import { NO_COLORS } from './report-colors.js';

/** Options of {@link assertCleanIntegration}. */
export interface AssertCleanOptions extends CheckOptions {
  /**
   * The least severity that fails: `error` lets warnings pass, `warn` fails on them too.
   * @default 'error'
   */
  failOn?: Severity;
}

/**
 * Checks the records and throws a {@link CheckFailedError}, whose message is the plain-text
 * report, when a finding is at least as severe as `failOn`; returns the report otherwise. For
 * test suites: `assertCleanIntegration(emulator.journal())`.
 */
export function assertCleanIntegration(
  records: readonly RequestRecord[],
  options: AssertCleanOptions = {},
): CheckReport {
  const { failOn = 'error', ...checkOptions } = options;
  if (failOn !== 'error' && failOn !== 'warn')
    throw new RangeError(`failOn must be 'error' or 'warn'; got ${JSON.stringify(failOn)}`);
  const report = checkIntegration(records, checkOptions);
  const failing = report.findings.some(
    (finding) => failOn === 'warn' || finding.severity === 'error',
  );
  if (failing) throw new CheckFailedError(formatReportText(report, NO_COLORS), report);
  return report;
}
