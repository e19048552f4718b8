import type { CheckReport } from './check-report.js';

/** Thrown by `assertCleanIntegration`: its message is the plain-text report, its `report` the data. */
export class CheckFailedError extends Error {
  override readonly name = 'CheckFailedError';
  readonly report: CheckReport;

  constructor(message: string, report: CheckReport) {
    super(message);
    this.report = report;
  }
}

/** Whether a value is a {@link CheckFailedError} (also across copies of the module). */
export function isCheckFailedError(value: unknown): value is CheckFailedError {
  return (
    value instanceof CheckFailedError ||
    (value instanceof Error && value.name === 'CheckFailedError' && 'report' in value)
  );
}
