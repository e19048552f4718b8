import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/check/check-report.js';
import { recordMaker, T0 } from '../helpers/check-records.js';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

type Report = CheckReport & { dropped: number };

const iso = (offset: number) => new Date(T0 + offset).toISOString();

/** Clean requests of as many shoppers, each with their own address as caller_id, as NDJSON lines. */
function recordLines(count = 4): string[] {
  const make = recordMaker();
  return Array.from({ length: count }, (_, index) =>
    JSON.stringify(
      make({
        at: index * 10,
        email: `shopper${index}@example.com`,
        callerId: `203.0.113.${index + 1}`,
      }),
    ),
  );
}

/** A loss line, as uas serve --record writes it. */
const marker = (lost: number, from: number, to: number, reason: string) =>
  JSON.stringify({ uas_recording: 'loss', lost, from: iso(from), to: iso(to), reason });

describe('uas check --journal on a recording that lost requests', () => {
  it('says in every report format how many the recording lost, when and why, and judges the rest', async () => {
    const dir = tempDir('uas-check-loss-');
    const [first, second, third, fourth] = recordLines();
    const path = join(dir, 'requests.ndjson');
    writeFileSync(
      path,
      [
        first,
        second,
        marker(7, 20, 25, 'buffer-full'),
        third,
        // A line a failed write cut short, then the marker that counts it.
        '{"id":99,"at":17672256000',
        marker(2, 30, 31, 'write-failed: ENOSPC'),
        fourth,
        '',
      ].join('\n'),
    );
    const warning = `the recording lost 9 requests between ${iso(20)} and ${iso(31)} (buffer-full, write-failed: ENOSPC; 2 loss markers); they are not judged`;

    const json = await runCli(['check', '--journal', path, '--json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as Report;
    expect(report.summary.requests).toBe(4);
    expect(report.warnings).toEqual([warning]);
    expect(json.stderr).toBe(`uas: ${warning}\n`);

    const junit = join(dir, 'report.xml');
    const markdown = join(dir, 'report.md');
    const text = await runCli([
      'check',
      '--journal',
      path,
      '--junit',
      junit,
      '--markdown',
      markdown,
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`\nincomplete: ${warning}\nuas check: `);
    const xml = readFileSync(junit, 'utf8');
    // Exit 0 (a warning, --fail-on error): no JUnit failure either; the warning is told.
    expect(xml).toContain('tests="15" failures="0"');
    expect(xml).toMatch(
      /<testcase classname="uas.check" name="all-requests-judged">\s+<system-out>warn: below --fail-on\nthe recording lost 9 requests between /,
    );
    expect(readFileSync(markdown, 'utf8')).toContain(`> ⚠️ **Incomplete:** ${warning}`);

    // A loss is a warning: --fail-on warn fails on it alone.
    writeFileSync(path, `${recordLines(1)[0]}\n${marker(1, 5, 5, 'buffer-full')}\n`);
    const strict = await runCli([
      'check',
      '--journal',
      path,
      '--fail-on',
      'warn',
      '--json',
      '--junit',
      junit,
    ]);
    expect(JSON.parse(strict.stdout)).toMatchObject({
      findings: [],
      warnings: [expect.any(String)],
    });
    expect(strict.code).toBe(1);
    expect(readFileSync(junit, 'utf8')).toMatch(
      /<testcase classname="uas.check" name="all-requests-judged">\s+<failure type="warn" message="the recording lost 1 request /,
    );
  });

  it('says in every report format that a last line cut short was not judged, and fails --fail-on warn on it', async () => {
    const dir = tempDir('uas-check-loss-');
    const path = join(dir, 'cut.ndjson');
    // A server stopped in the middle of writing its last line: that request is not judged.
    writeFileSync(path, `${recordLines(2).join('\n')}\n{"id":3,"at":17672256`);
    const warning = `recording ${path}, line 3: cut short (the server stopped while writing it); judged without it`;
    const junit = join(dir, 'report.xml');
    const markdown = join(dir, 'report.md');

    const json = await runCli(['check', '--journal', path, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      summary: { requests: 2 },
      warnings: [warning],
    });
    expect(json.stderr).toBe(`uas: ${warning}\n`);

    const text = await runCli(['check', '--journal', path, '--markdown', markdown]);
    expect(text.stdout).toContain(`\nincomplete: ${warning}\nuas check: `);
    expect(readFileSync(markdown, 'utf8')).toContain(`> ⚠️ **Incomplete:** ${warning}`);

    const strict = await runCli([
      'check',
      '--journal',
      path,
      '--fail-on',
      'warn',
      '--junit',
      junit,
    ]);
    expect(strict.code).toBe(1);
    expect(readFileSync(junit, 'utf8')).toMatch(
      /<testcase classname="uas.check" name="all-requests-judged">\s+<failure type="warn" message="recording /,
    );
  });

  it('reads a recording that holds a loss marker and nothing else', async () => {
    const path = join(tempDir('uas-check-loss-'), 'lost.ndjson');
    writeFileSync(path, `${marker(3, 0, 2, 'write-failed: EPIPE')}\n`);
    const result = await runCli(['check', '--journal', path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `uas: the recording lost 3 requests between ${iso(0)} and ${iso(2)} (write-failed: EPIPE; 1 loss marker); they are not judged\n` +
        `uas: nothing was judged: the recording ${path} holds no request to the service (/v1/...)\n`,
    );
  });

  it.each([
    ['a kind it does not know', { uas_recording: 'gap', lost: 1 }, 'uas_recording must be "loss"'],
    [
      'a count that is not a whole number',
      { uas_recording: 'loss', lost: -1, from: iso(0), to: iso(0), reason: 'x' },
      'lost must be a whole number, 0 or more',
    ],
    [
      'a time that is not one',
      { uas_recording: 'loss', lost: 1, from: 'yesterday', to: iso(0), reason: 'x' },
      'from must be an ISO 8601 time',
    ],
  ])('refuses a loss marker with %s, naming its line', async (_name, value, why) => {
    const path = join(tempDir('uas-check-loss-'), 'bad.ndjson');
    writeFileSync(path, `${recordLines(1)[0]}\n${JSON.stringify(value)}\n`);
    const result = await runCli(['check', '--journal', path]);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(`uas: recording ${path}, line 2: not a loss marker (${why})\n`);
  });
});
