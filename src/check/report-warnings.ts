import type { CheckReport } from './check-report.js';
import { plural } from './check-rule.js';

/** The warning for requests the journal let go before they were read; undefined for none. */
export function droppedWarning(dropped: number): string | undefined {
  return dropped > 0
    ? `the journal had let ${plural(dropped, 'older request')} go; they are not judged (uas serve --journal-size unbounded keeps them all)`
    : undefined;
}

/** The report with `warnings` added to its own (`[]` when there are none: never absent). */
export function withWarnings(
  report: CheckReport,
  warnings: ReadonlyArray<string | undefined>,
): CheckReport {
  const kept = [...report.warnings, ...warnings].filter(
    (warning): warning is string => warning !== undefined,
  );
  return { ...report, warnings: kept };
}
