import type { CheckReport } from './check-report.js';
import { plural } from './check-rule.js';
import { failsAt, type ReportContext } from './report-context.js';

/** Whether a check failed, and every reason why: what `uas check` exits on, and what each report says. */
export interface ReportVerdict {
  failed: boolean;
  /** One sentence per reason, such as "nothing was judged: ..."; empty when it passed. */
  reasons: string[];
}

/** Why nothing was judged when `context.unjudged` does not say. */
const NOTHING_RECORDED = 'no request to the service (/v1/...) was recorded';

/** The sentence that says a report judged nothing, and why; undefined when it judged requests. */
export function nothingJudged(
  report: CheckReport,
  context: ReportContext = {},
): string | undefined {
  return report.summary.requests > 0
    ? undefined
    : `nothing was judged: ${context.unjudged ?? NOTHING_RECORDED}`;
}

/**
 * The verdict on a report: it fails when nothing was judged, on a finding at `failOn` or worse,
 * on what it could not judge (its warnings) under `failOn` warn, and when the command failed.
 */
export function reportVerdict(report: CheckReport, context: ReportContext = {}): ReportVerdict {
  const { failOn = 'error', command } = context;
  const failing = report.findings.filter((finding) => failsAt(finding.severity, failOn)).length;
  const reasons = [
    nothingJudged(report, context),
    failing > 0 ? `${plural(failing, 'finding')} at --fail-on ${failOn} or worse` : undefined,
    report.warnings.length > 0 && failsAt('warn', failOn)
      ? `the report is incomplete (${plural(report.warnings.length, 'warning')}), which --fail-on warn fails`
      : undefined,
    command?.failed ? command.message : undefined,
  ].filter((reason): reason is string => reason !== undefined);
  return { failed: reasons.length > 0, reasons };
}
