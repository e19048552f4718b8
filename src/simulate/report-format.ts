import asciichart from 'asciichart';
import type { ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import { escapeControls } from '../text/escape-controls.js';
import { markdownText } from '../text/markdown-text.js';
import { pluralize } from '../text/pluralize.js';
import type { ModeReport, SimulationReport } from './simulation-report.js';
import { shareStrips } from './share-strips.js';
import { formatShare } from './share.js';

/** `part/whole (share)`, the share computed from the two counts shown. */
const fraction = (part: number, whole: number, ofNothing = '-') =>
  `${part}/${whole} (${formatShare(part, whole) ?? ofNothing})`;
const seconds = (ms: number | null) => (ms === null ? '-' : `${(ms / 1000).toFixed(1)}s`);

function failedAt(mode: ModeReport): string {
  const steps = Object.entries(mode.shoppers.failed_at).filter(([, count]) => count > 0);
  return steps.length === 0
    ? '0'
    : `${mode.shoppers.failed}: ${steps.map(([step, count]) => `${step} ${count}`).join(', ')}`;
}

/** The rows of the comparison table, shared by the terminal, Markdown and HTML forms. */
export function reportRows(report: SimulationReport): { header: string[]; body: string[][] } {
  const header = ['', ...report.modes.map((mode) => mode.mode)];
  const line = (label: string, value: (mode: ModeReport) => string) => [
    label,
    ...report.modes.map(value),
  ];
  // Where codes cannot be read, a sign-in ends at start: the rows say so.
  const atStart = report.scenario.flows_end_at === 'start';
  const body = [
    line(atStart ? 'sign-ins that reached start' : 'sign-ins completed', (m) =>
      fraction(m.shoppers.completed, m.shoppers.arrived),
    ),
    line('sign-ins failed, at step', (m) => failedAt(m)),
    line('still running at the end', (m) => String(m.shoppers.unfinished)),
    line(
      'shopper requests with 429',
      (m) => `${m.legitimate_requests.rejected_429}/${m.legitimate_requests.total}`,
    ),
    line(
      'retries (time waited)',
      (m) => `${m.legitimate_requests.retries} (${seconds(m.legitimate_requests.waited_ms)})`,
    ),
    line(
      atStart ? 'time to start p50/p95' : 'time to sign in p50/p95',
      (m) => `${seconds(m.flow_time_ms.p50)} / ${seconds(m.flow_time_ms.p95)}`,
    ),
    line('bot requests allowed', (m) => fraction(m.bot.allowed, m.bot.requests, 'no bot requests')),
  ];
  return { header, body };
}

const WARNING = 'warning: ';

/**
 * The lines that say what was simulated, then the warnings: raw text, which may hold a scenario
 * file's name and description as written; each form escapes it for where it goes.
 */
export function reportHeadline(report: SimulationReport): string[] {
  const s = report.scenario;
  const bot =
    s.bot.from_s >= s.duration_s
      ? `no bot in this run (${s.bot.rate} on ${s.bot.target} would start at ${s.bot.from_s} s)`
      : `bot ${s.bot.rate} on ${s.bot.target} from ${s.bot.from_s} s to ${s.bot.until_s} s`;
  return [
    `scenario ${s.name}${s.description === '' ? '' : `: ${s.description}`}`,
    `${s.duration_s} s simulated (${s.engine}${s.target === undefined ? '' : ` against ${s.target}`}), seed ${s.seed}; up to ${pluralize(s.shoppers, 'shopper')}; ${bot}`,
    `limits: client ${pluralize(s.limits.client.burst, 'token')} at ${s.limits.client.rate}, caller ${pluralize(s.limits.caller.burst, 'token')} at ${s.limits.caller.rate}; shoppers make at most ${pluralize(s.retry.max_attempts, 'attempt')}${s.retry.max_attempts === 1 ? ' (no retry)' : ''}`,
    ...report.warnings.map((warning) => `${WARNING}${warning}`),
  ];
}

/** The report for a terminal: headline, comparison table, verdicts, and a chart of success over time. */
export function formatReport(report: SimulationReport, chalk: ChalkInstance, width = 80): string {
  const { header, body } = reportRows(report);
  const table = new Table({
    head: header.map((cell) => chalk.bold(cell)),
    style: { head: [], border: [] },
    wordWrap: true,
  });
  table.push(...body);
  const verdicts = report.modes.map((mode) => {
    const color = mode.verdict.startsWith('protected')
      ? chalk.green
      : mode.verdict.startsWith('shoppers hurt')
        ? chalk.red
        : chalk.yellow;
    return `${chalk.bold(mode.mode.padEnd(10))} ${color(mode.verdict)}`;
  });
  return [
    // A scenario file's name or description may hold control characters: shown, not obeyed.
    ...reportHeadline(report).map((raw) => {
      const line = escapeControls(raw, { keepNewlines: false });
      return line.startsWith(WARNING) ? chalk.yellow(line) : chalk.dim(line);
    }),
    table.toString(),
    ...verdicts,
    '',
    chart(report, chalk, width),
  ].join('\n');
}

const SERIES_COLORS = [asciichart.red, asciichart.green, asciichart.yellow, asciichart.magenta];

/**
 * A chart of the share of sign-ins that succeeded in each time bin, per mode: an asciichart plot
 * in colour, one colour a mode; without colour (and in Markdown), where lines that agree would
 * hide each other, one row a mode ({@link shareStrips}).
 */
export function chart(report: SimulationReport, chalk: ChalkInstance, width = 80): string {
  if (report.modes.every((mode) => mode.timeline.length === 0)) return '';
  // A mode where no sign-in ended has no share to show: it draws no line (no row of 100%).
  const shares = report.modes.map(successShares);
  const binSeconds = report.modes[0]?.timeline[0]?.to_s ?? 0;
  const time = report.scenario.engine === 'live' ? 'of the run' : 'of simulated time';
  const title = `sign-ins that succeeded, per ${binSeconds} s ${time}`;
  if (chalk.level === 0)
    return [title, ...shareStrips(report.modes, shares, binSeconds)].join('\n');
  const drawn = shares.flatMap((values, index) => (values.length === 0 ? [] : [index]));
  const plot =
    drawn.length === 0
      ? '      no sign-in ended in any mode'
      : asciichart.plot(
          drawn.map((index) =>
            stretch(
              shares[index]!.map((share) => share * 100),
              Math.max(10, Math.min(60, width - 20)),
            ),
          ),
          {
            height: 8,
            min: 0,
            max: 100,
            format: (value: number) => `${value.toFixed(0).padStart(4)}% `,
            colors: drawn.map((index) => SERIES_COLORS[index]!),
          },
        );
  const legend = report.modes
    .map((mode, index) =>
      shares[index]!.length === 0
        ? `   ${mode.mode} (no sign-in ended)`
        : `${SERIES_COLORS[index]}── ${mode.mode}${asciichart.reset}`,
    )
    .join('   ');
  return [title, plot, `      ${legend}`].join('\n');
}

/**
 * The share of sign-ins that succeeded in each bin of a mode's timeline, 0 to 1, as the charts
 * draw it: a bin where no sign-in ended repeats the share before it (the first known share before
 * any), so the line stays continuous; none at all (an empty list) when no sign-in ended in the
 * run. docs/simulate.md says so beside the chart.
 */
export function successShares(mode: Pick<ModeReport, 'timeline'>): number[] {
  const first = mode.timeline.find((bin) => bin.success_rate !== null)?.success_rate;
  if (first === undefined || first === null) return [];
  let last = first;
  return mode.timeline.map((bin) => {
    if (bin.success_rate !== null) last = bin.success_rate;
    return last;
  });
}

function stretch(values: number[], width: number): number[] {
  if (values.length === 0) return values;
  return Array.from(
    { length: width },
    (_, index) =>
      values[Math.min(values.length - 1, Math.floor((index * values.length) / width))] as number,
  );
}

/**
 * The report as Markdown, to paste into a write-up. Text that may come from a scenario file (and
 * every table cell) is escaped: it stays plain text on its line, and cannot add a heading, a
 * link, HTML or a table cell.
 */
export function formatMarkdown(report: SimulationReport): string {
  const { header, body } = reportRows(report);
  const line = (cells: string[]) => `| ${cells.map(markdownText).join(' | ')} |`;
  return [
    `## Simulation: ${markdownText(report.scenario.name)}`,
    '',
    ...reportHeadline(report)
      .slice(report.scenario.description === '' ? 1 : 0)
      .map((text) => `${markdownText(text)}  `),
    '',
    line(header),
    line(header.map(() => '---')),
    ...body.map(line),
    '',
    ...report.modes.map((mode) => `- **${mode.mode}** (${mode.description}): ${mode.verdict}`),
    '',
    '```',
    chart(report, { level: 0 } as ChalkInstance),
    '```',
    '',
  ].join('\n');
}
