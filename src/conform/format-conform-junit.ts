import { junitXml } from '../text/junit-xml.js';
import type { ConformHeading, ConformReport } from './conform-report.js';

/**
 * The report as JUnit XML: one test case per probe, `<failure>` with every difference, or
 * `<skipped>` with the reason.
 */
export function formatConformJunit(report: ConformReport, heading: ConformHeading): string {
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
