import { pluralize } from '../text/pluralize.js';
import { secondsWords } from './fidelity-report.js';
import type { FidelityReport } from './fidelity-report.js';

/** The fidelity report for people: what the real service did, the differences, a config. */
export function formatFidelityText(report: FidelityReport): string {
  const lines = [
    `uas conform --journal: ${pluralize(report.exchanges, 'exchange')} answered by the real service`,
  ];
  lines.push('', 'statuses');
  for (const { status, count, problem_types } of report.statuses)
    lines.push(
      `  ${status}  ${count}${problem_types.length > 0 ? `  ${problem_types.join(', ')}` : ''}`,
    );
  const { refusals, absent, unreadable, least, most } = report.retry_after;
  const seen = [
    least === null || most === null
      ? undefined
      : least === most
        ? secondsWords(least)
        : `${least} to ${secondsWords(most)}`,
    absent > 0
      ? `${least !== null || unreadable > 0 ? '' : 'never, '}absent on ${absent}`
      : undefined,
    unreadable > 0 ? `unreadable on ${unreadable}` : undefined,
  ].filter((part) => part !== undefined);
  lines.push(
    '',
    `429s        ${refusals}${refusals > 0 ? `: Retry-After ${seen.join(', ')}` : ''}`,
  );
  const buckets = report.refusal_buckets;
  if (refusals > 0)
    lines.push(
      `  buckets   client ${buckets.client}, caller ${buckets.caller}, not named ${buckets.unnamed}`,
    );
  lines.push(
    `headers     ${report.headers.style}${report.headers.policies.length > 0 ? ` (policies ${report.headers.policies.join(' | ')})` : ''}`,
  );
  lines.push('');
  if (report.incomplete !== undefined) lines.push(`incomplete: ${report.incomplete}`, '');
  if (report.differences.length === 0) {
    lines.push("no difference from the emulator's assumptions");
    return `${lines.join('\n')}\n`;
  }
  lines.push(
    `${pluralize(report.differences.length, 'difference')} from the emulator's assumptions`,
  );
  for (const difference of report.differences)
    lines.push(
      `  ${difference.topic}: the real service: ${difference.real}; the emulator: ${difference.emulator}`,
    );
  if (Object.keys(report.config.behavior).length > 0)
    lines.push(
      '',
      'a config that matches (merge into your uas config file):',
      JSON.stringify(report.config, null, 2),
    );
  return `${lines.join('\n')}\n`;
}
