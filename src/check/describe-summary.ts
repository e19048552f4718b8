import type { CheckSummary } from './check-report.js';
import { plural } from './check-rule.js';
import { formatDuration } from '../text/duration.js';

/**
 * What was checked, in one phrase: "6 requests (exists 6), 6 end-users, 2 caller_ids, 0 answered
 * 429, 6 logical requests (0 retried) over 0.0 s". Unescaped: operation names come from records.
 */
export function describeSummary(summary: CheckSummary): string {
  const operations = Object.entries(summary.by_operation)
    .map(([operation, count]) => `${operation} ${count}`)
    .join(', ');
  return (
    `${plural(summary.requests, 'request')}${operations === '' ? '' : ` (${operations})`}, ` +
    `${plural(summary.end_users, 'end-user')}, ${plural(summary.caller_ids, 'caller_id')}, ` +
    `${summary.rate_limited} answered 429, ` +
    `${plural(summary.logical_requests, 'logical request')} (${summary.retried} retried)` +
    (summary.span === null ? '' : ` over ${spanWords(summary.span.duration_ms)}`) +
    (summary.ignored > 0 ? ` (${plural(summary.ignored, 'other record')} ignored)` : '')
  );
}

/**
 * How long the checked requests spanned: to a tenth of a second under a minute (`0.5 s`), for a
 * person beyond (`2 min 5 s`, `3 d 4 h`, `4 years`: a recording may span any time).
 */
function spanWords(ms: number): string {
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : formatDuration(ms);
}
