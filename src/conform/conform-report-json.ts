import { countResults, type ConformHeading, type ConformReport } from './conform-report.js';

/** The report as one JSON value, keys in snake_case. */
export function conformReportToJson(report: ConformReport, heading: ConformHeading): unknown {
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
