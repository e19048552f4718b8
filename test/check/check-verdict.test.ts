import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recordMaker } from '../helpers/check-records.js';
import { runCli } from '../helpers/run-cli.js';
import { createEmulator } from '../../src/emulator.js';

const dir = mkdtempSync(join(tmpdir(), 'uas-check-verdict-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One clean request of one shopper, recorded as `uas serve --record` writes it. */
function cleanRecording(): string {
  const path = join(dir, 'clean.ndjson');
  const record = recordMaker()({ at: 0, email: 'ann@example.com', callerId: '203.0.113.7' });
  writeFileSync(path, `${JSON.stringify(record)}\n`);
  return path;
}

describe('uas check reports', () => {
  it('always holds warnings in --json, an empty list when nothing was left out', async () => {
    const result = await runCli(['check', '--json', '--journal', cleanRecording()]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(report.warnings).toEqual([]);
    expect(report.verdict).toEqual({ failed: false, reasons: [] });
  });

  it('always holds warnings in GET /__uas/check, an empty list when nothing was left out', () => {
    const answer = createEmulator().handle({ method: 'GET', url: '/__uas/check', headers: {} });
    expect((answer as { body: { warnings?: unknown } }).body.warnings).toEqual([]);
  });

  it('says in every report why it failed when nothing was judged', async () => {
    const empty = join(dir, 'empty.ndjson');
    writeFileSync(empty, '');
    const junit = join(dir, 'nothing.xml');
    const markdown = join(dir, 'nothing.md');
    const args = ['check', '--journal', empty, '--junit', junit, '--markdown', markdown];
    const result = await runCli([...args, '--json']);
    expect(result.code).toBe(1);
    const why = `nothing was judged: the recording ${empty} holds no request to the service (/v1/...)`;
    expect(JSON.parse(result.stdout)).toMatchObject({ verdict: { failed: true, reasons: [why] } });
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuite name="uas check" tests="15" failures="1"/);
    expect(xml).toContain(
      `<testcase classname="uas.check" name="requests-judged">\n      <failure type="error" message="${why}">`,
    );
    const md = readFileSync(markdown, 'utf8');
    expect(md.split('\n')[0]).toBe('### uas check: failed, nothing judged');
    expect(md).toContain(`> ❌ **Failed:** ${why}`);
    expect(md).not.toContain('no findings');
    expect(result.stderr).toBe(`uas: ${why}\n`);
  });

  it('gives in --json the reasons it fails, as its exit code does', async () => {
    const path = join(dir, 'email.ndjson');
    const make = recordMaker();
    const emails = ['ann@example.com', 'ben@example.com'];
    writeFileSync(
      path,
      emails
        .map((email, index) => `${JSON.stringify(make({ at: index, email, callerId: email }))}\n`)
        .join(''),
    );
    const lenient = await runCli(['check', '--json', '--journal', path]);
    expect(lenient.code).toBe(0);
    expect(JSON.parse(lenient.stdout)).toMatchObject({ verdict: { failed: false, reasons: [] } });
    const strict = await runCli(['check', '--json', '--journal', path, '--fail-on', 'warn']);
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.stdout)).toMatchObject({
      verdict: { failed: true, reasons: ['1 finding at --fail-on warn or worse'] },
    });
  });
});

describe('uas check -- <command>: usage', () => {
  it('refuses an empty command in one line, exit 2', async () => {
    const result = await runCli(['check', '--', '']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'uas: the command after -- is empty; give the command that runs your integration (uas check -- node my-test.mjs)\n',
    });
  });

  it('refuses a command Node cannot pass on (a NUL byte) in one line, exit 2', async () => {
    const result = await runCli(['check', '--', 'node', 'a\0b']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^uas: cannot run "node": [^\n]*null bytes[^\n]*\n$/);
    expect(result.stderr).not.toContain('\0');
  });

  it('asks for the unit of a bare --timeout, as every duration flag does', async () => {
    const result = await runCli(['check', '--timeout', '5', '--', 'true']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'uas: invalid --timeout: give a unit, e.g. 5s or 5ms; got "5"\n',
    });
  });
});
