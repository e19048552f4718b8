import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { createModeStats, type ModeStats } from './mode-stats.js';
import { buildReport } from './build-report.js';
import {
  chart,
  formatMarkdown,
  formatReport,
  reportHeadline,
  reportRows,
  successShares,
} from './report-format.js';
import { formatHtml } from './report-html.js';
import { resolveScenario, type Mode } from './scenario.js';

function statsOf(
  mode: Mode,
  counts: { completed: number; failed: number; unfinished: number; bot?: [number, number] },
): ModeStats {
  const stats = createModeStats(mode, 24);
  stats.shoppers.completed = counts.completed;
  stats.shoppers.failed = counts.failed;
  stats.shoppers.failedAt.exists = counts.failed;
  stats.shoppers.unfinished = counts.unfinished;
  stats.shoppers.arrived = counts.completed + counts.failed + counts.unfinished;
  const [allowed, requests] = counts.bot ?? [0, 0];
  stats.bot.requests = requests;
  stats.bot.allowed = allowed;
  stats.bot.rejected = requests - allowed;
  return stats;
}

const cell = (stats: ModeStats, label: string) => {
  const report = buildReport(resolveScenario({ modes: [stats.mode] }), [stats], 0, 'virtual');
  return reportRows(report).body.find((row) => row[0] === label)?.[1];
};

describe('reportRows', () => {
  it('gives the share of the fraction it prints when some shoppers are still running', () => {
    const stats = statsOf('per-caller', { completed: 292, failed: 0, unfinished: 6 });
    expect(cell(stats, 'sign-ins completed')).toBe('292/298 (98.0%)');
    const cut = statsOf('shared', { completed: 52, failed: 0, unfinished: 10 });
    expect(cell(cut, 'sign-ins completed')).toBe('52/62 (83.9%)');
  });

  it('prints 100.0% only for all and 0.0% only for none', () => {
    const nearlyAll = statsOf('rotating', {
      completed: 1,
      failed: 0,
      unfinished: 0,
      bot: [29_999, 30_000],
    });
    expect(cell(nearlyAll, 'bot requests allowed')).toBe('29999/30000 (>99.9%)');
    const nearlyNone = statsOf('per-caller', {
      completed: 1,
      failed: 0,
      unfinished: 0,
      bot: [1, 30_000],
    });
    expect(cell(nearlyNone, 'bot requests allowed')).toBe('1/30000 (<0.1%)');
    const all = statsOf('rotating', { completed: 5, failed: 0, unfinished: 0, bot: [7, 7] });
    expect(cell(all, 'bot requests allowed')).toBe('7/7 (100.0%)');
    expect(cell(all, 'sign-ins completed')).toBe('5/5 (100.0%)');
    const none = statsOf('shared', { completed: 0, failed: 4, unfinished: 0, bot: [0, 9] });
    expect(cell(none, 'bot requests allowed')).toBe('0/9 (0.0%)');
    expect(cell(none, 'sign-ins completed')).toBe('0/4 (0.0%)');
  });

  it('gives no share of nothing', () => {
    const idle = statsOf('shared', { completed: 0, failed: 0, unfinished: 0 });
    expect(cell(idle, 'sign-ins completed')).toBe('0/0 (-)');
    expect(cell(idle, 'bot requests allowed')).toBe('0/0 (no bot requests)');
  });
});

describe('chart', () => {
  it('speaks of simulated time only for a virtual run', () => {
    const stats = statsOf('shared', { completed: 3, failed: 1, unfinished: 0 });
    stats.timeline[0]!.completed = 3;
    stats.timeline[0]!.failed = 1;
    const scenario = resolveScenario({ duration: '24s', modes: ['shared'] });
    const plain = new Chalk({ level: 0 });
    const virtual = buildReport(scenario, [stats], 0, 'virtual');
    expect(chart(virtual, plain)).toMatch(/^sign-ins that succeeded, per 1 s of simulated time\n/);
    const live = buildReport(scenario, [stats], 0, 'live', { target: 'http://127.0.0.1:4010' });
    expect(chart(live, plain)).toMatch(/^sign-ins that succeeded, per 1 s of the run\n/);
  });
});

describe('reportHeadline', () => {
  it('says one shopper, one token and one attempt in the singular', () => {
    const scenario = resolveScenario({
      shoppers: { count: 1 },
      limits: { caller: { burst: 1 } },
      retry: { maxAttempts: 1 },
      modes: ['per-caller'],
    });
    const stats = statsOf('per-caller', { completed: 1, failed: 0, unfinished: 0 });
    const [, run, limits] = reportHeadline(buildReport(scenario, [stats], 0, 'virtual'));
    expect(run).toContain('; up to 1 shopper; ');
    expect(limits).toBe(
      'limits: client 20 tokens at 10/s, caller 1 token at 1/s; shoppers make at most 1 attempt (no retry)',
    );
  });
});

describe('chart without colour', () => {
  /** A mode whose sign-ins, two a bin, succeed as `completedPerBin` says (24 bins). */
  const modeWith = (mode: Mode, completedPerBin: (bin: number) => number) => {
    const stats = statsOf(mode, { completed: 0, failed: 0, unfinished: 0 });
    stats.timeline.forEach((bin, index) => {
      bin.completed = completedPerBin(index);
      bin.failed = 2 - bin.completed;
    });
    return stats;
  };

  it('gives each mode its own row, so modes that agree do not hide each other', () => {
    const scenario = resolveScenario({ duration: '24s' });
    const report = buildReport(
      scenario,
      [
        modeWith('shared', () => 0),
        modeWith('per-caller', () => 2),
        modeWith('static', (bin) => (bin < 12 ? 1 : 0)),
        modeWith('rotating', () => 2),
      ],
      0,
      'virtual',
    );
    const lines = chart(report, new Chalk({ level: 0 })).split('\n');
    expect(lines).toEqual([
      'sign-ins that succeeded, per 1 s of simulated time',
      `shared      ${'▁'.repeat(24)}  lowest 0%, last 0%`,
      `per-caller  ${'█'.repeat(24)}  lowest 100%, last 100%`,
      `static      ${'▅'.repeat(12)}${'▁'.repeat(12)}  lowest 0%, last 0%`,
      `rotating    ${'█'.repeat(24)}  lowest 100%, last 100%`,
      '            ▁ none, ▂ to ▇ some, █ all; one cell per 1 s',
    ]);
    // Markdown has no colour either: the same rows.
    expect(formatMarkdown(report)).toContain(lines.join('\n'));
  });

  /** Shared refusing every sign-in; per-caller with none ended. */
  const noSignInPerCaller = () =>
    buildReport(
      resolveScenario({ duration: '24s', modes: ['shared', 'per-caller'] }),
      [
        modeWith('shared', () => 0),
        statsOf('per-caller', { completed: 0, failed: 0, unfinished: 3 }),
      ],
      0,
      'virtual',
    );

  it('shows no share for a mode where no sign-in ended, rather than a full row at 100%', () => {
    const report = noSignInPerCaller();
    expect(
      chart(report, new Chalk({ level: 0 }))
        .split('\n')
        .slice(1, 3),
    ).toEqual([
      `shared      ${'▁'.repeat(24)}  lowest 0%, last 0%`,
      `per-caller  ${' '.repeat(24)}  no sign-in ended`,
    ]);
  });

  it('draws no line in colour, nor in HTML, for a mode where no sign-in ended: the legend says so', () => {
    const report = noSignInPerCaller();
    const plot = chart(report, new Chalk({ level: 1 }));
    // Only the shared mode's colour (red) draws; nothing at 100%.
    expect(plot).toContain('\u001b[31m');
    expect(plot).not.toContain('\u001b[32m');
    expect(plot).not.toMatch(/100% [^\n]*[─╭╮╯╰]/);
    expect(plot).toContain('per-caller (no sign-in ended)');
    const html = formatHtml(report);
    expect(html.match(/<polyline /g)).toHaveLength(1);
    expect(html).toContain('■ per-caller (no sign-in ended)');

    const none = buildReport(
      resolveScenario({ duration: '24s', modes: ['shared'] }),
      [statsOf('shared', { completed: 0, failed: 0, unfinished: 3 })],
      0,
      'virtual',
    );
    expect(chart(none, new Chalk({ level: 1 }))).toContain('no sign-in ended in any mode');
    expect(formatHtml(none)).not.toContain('<polyline ');
  });

  it('keeps the top cell for all and the bottom one for none', () => {
    const scenario = resolveScenario({ duration: '24s', modes: ['shared'] });
    const nearly = statsOf('shared', { completed: 0, failed: 0, unfinished: 0 });
    nearly.timeline[0]!.completed = 99;
    nearly.timeline[0]!.failed = 1;
    nearly.timeline[1]!.completed = 1;
    nearly.timeline[1]!.failed = 99;
    const [row] = chart(buildReport(scenario, [nearly], 0, 'virtual'), new Chalk({ level: 0 }))
      .split('\n')
      .slice(1);
    expect(row).toMatch(/^shared {6}▇▂▂+ {2}lowest 1%, last 1%$/);
  });
});

/** Any control character but a line feed. */
// eslint-disable-next-line no-control-regex -- looking for control characters
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;

describe('a scenario named by its file', () => {
  // A scenario file is anyone's: its name and description are text from outside.
  const hostile = () =>
    buildReport(
      resolveScenario({
        name: 'rush\u001b]0;owned\u0007 | *now*',
        description: 'one\n\n# Owned\r\u009b2J [link](http://evil.example) <b>x</b>',
        modes: ['shared'],
      }),
      [statsOf('shared', { completed: 1, failed: 0, unfinished: 0 })],
      0,
      'virtual',
    );

  it('shows control characters in the terminal as escapes, on one line', () => {
    const text = formatReport(hostile(), new Chalk({ level: 0 }));
    expect(text.split('\n')[0]).toBe(
      'scenario rush\\x1b]0;owned\\x07 | *now*: one\\x0a\\x0a# Owned\\r\\x9b2J [link](http://evil.example) <b>x</b>',
    );
    expect(text).not.toMatch(CONTROL);
  });

  it('keeps them plain text in Markdown: no heading, link, HTML or table cell of their own', () => {
    const lines = formatMarkdown(hostile()).split('\n');
    expect(lines[0]).toBe('## Simulation: rush\\\\x1b\\]0;owned\\\\x07 \\| \\*now\\*');
    expect(lines[2]).toBe(
      'scenario rush\\\\x1b\\]0;owned\\\\x07 \\| \\*now\\*: one\\\\x0a\\\\x0a\\# Owned\\\\r\\\\x9b2J \\[link\\](http\\://evil.example) \\<b\\>x\\</b\\>  ',
    );
    expect(lines.filter((line) => line.startsWith('#'))).toHaveLength(1);
    // The table keeps its columns: a header and one mode.
    const table = lines.filter((line) => line.startsWith('| '));
    for (const row of table) expect(row.split(/(?<!\\)\|/)).toHaveLength(4);
  });

  it('shows control characters in the HTML page as escapes: a page printed with cat obeys none', () => {
    const html = formatHtml(hostile());
    expect(html).not.toMatch(CONTROL);
    expect(html).toContain('<title>Simulation: rush\\x1b]0;owned\\x07 | *now*</title>');
    expect(html).toContain(
      'one\\x0a\\x0a# Owned\\r\\x9b2J [link](http://evil.example) &#60;b&#62;x&#60;/b&#62;',
    );
  });
});

describe('successShares', () => {
  const timeline = (rates: Array<number | null>) => ({
    timeline: rates.map((rate, index) => ({
      from_s: index,
      to_s: index + 1,
      completed: 0,
      failed: 0,
      success_rate: rate,
      shopper_requests: 0,
    })) as Parameters<typeof successShares>[0]['timeline'],
  });

  it('repeats the share before a bin where no sign-in ended, and starts from the first known', () => {
    expect(successShares(timeline([null, 0.5, null, null, 1, null]))).toEqual([
      0.5, 0.5, 0.5, 0.5, 1, 1,
    ]);
  });

  it('draws no line when no sign-in ended at all', () => {
    expect(successShares(timeline([null, null]))).toEqual([]);
  });
});
