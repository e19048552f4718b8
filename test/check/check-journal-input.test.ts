import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/check/check-report.js';
import { recordMaker, type RecordSpec } from '../helpers/check-records.js';
import { runCli } from '../helpers/run-cli.js';
import { UAS_BIN } from '../helpers/spawn-uas.js';

// `uas check --journal`: a recording is read once, as a stream, from a file, a pipe or stdin,
// and whatever it holds ends as a report or as one line on stderr.

const dir = mkdtempSync(join(tmpdir(), 'uas-check-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EMAILS = ['ann@example.com', 'ben@example.com', 'cat@example.com', 'dan@example.com'];

/** NDJSON as `uas serve --record` writes it. */
function ndjson(specs: RecordSpec[]): string {
  const make = recordMaker();
  return specs.map((spec) => `${JSON.stringify(make(spec))}\n`).join('');
}

/** Four shoppers behind one caller_id: caller-id-shared quotes it. */
const shared = (callerId: string) =>
  ndjson(EMAILS.map((email, index) => ({ at: index * 10, email, callerId })));

const emailAsCallerId = () =>
  ndjson(EMAILS.map((email, index) => ({ at: index * 10, email, callerId: email })));

/** Runs the built binary with `input` piped to its stdin (text, or a stream of it). */
async function uasWithStdin(
  args: string[],
  input: string | Readable,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const uas = spawn(process.execPath, [UAS_BIN, ...args], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  uas.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  uas.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // uas may stop reading before the input ends (it refuses it): that is not the test's error.
  uas.stdin.on('error', () => {});
  if (typeof input === 'string') uas.stdin.end(input);
  else input.pipe(uas.stdin);
  const code = await new Promise<number | null>((resolve) => uas.on('close', resolve));
  return { code, stdout, stderr };
}

const rulesOf = (stdout: string) =>
  (JSON.parse(stdout) as CheckReport).findings.map((finding) => finding.rule);

describe('uas check --journal: where a recording comes from', () => {
  it('reads standard input with --journal -', async () => {
    const result = await uasWithStdin(['check', '--journal', '-', '--json'], emailAsCallerId());
    expect(result.code, result.stderr).toBe(0);
    expect(rulesOf(result.stdout)).toEqual(['caller-id-is-email']);
  });

  it('reads a JSON document from standard input too', async () => {
    const lines = emailAsCallerId().trim().split('\n');
    const result = await uasWithStdin(
      ['check', '--journal', '-', '--json'],
      `{"requests": [${lines.join(',')}], "dropped": 0}`,
    );
    expect(rulesOf(result.stdout)).toEqual(['caller-id-is-email']);
  });

  it.skipIf(process.platform === 'win32')(
    'reads a named pipe once',
    async () => {
      const fifo = join(dir, 'recording.fifo');
      expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
      const source = join(dir, 'for-fifo.ndjson');
      writeFileSync(source, emailAsCallerId());
      // The writer opens the pipe, writes the recording once and closes it.
      const writer = spawn('sh', ['-c', 'cat "$0" > "$1"', source, fifo], { stdio: 'ignore' });
      const written = new Promise((resolve) => writer.on('close', resolve));
      const result = await runCli(['check', '--journal', fifo, '--json']);
      await written;
      expect(result.code, result.stderr).toBe(0);
      expect(rulesOf(result.stdout)).toEqual(['caller-id-is-email']);
    },
    20_000,
  );

  it('accepts a UTF-8 byte order mark at the start', async () => {
    const path = join(dir, 'bom.ndjson');
    writeFileSync(path, `\ufeff${emailAsCallerId()}`);
    const result = await runCli(['check', '--journal', path, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(rulesOf(result.stdout)).toEqual(['caller-id-is-email']);
  });
});

describe('uas check --journal: what it refuses', () => {
  it.skipIf(process.platform === 'win32')(
    'refuses a line over 1 MiB as soon as it is that long, in one line (exit 2)',
    async () => {
      // An endless line: what was read so far is all uas can have looked at.
      const result = await uasWithStdin(['check', '--journal', '/dev/zero'], '');
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toBe(
        'uas: recording /dev/zero, line 1: longer than 1 MiB; not a request record\n',
      );
    },
    20_000,
  );

  it.skipIf(process.platform === 'win32')(
    'refuses a JSON list over 64 MiB, saying so and what to give instead',
    async () => {
      const endless = spawn('sh', ['-c', "printf '['; exec cat /dev/zero"], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const result = await uasWithStdin(['check', '--journal', '-'], endless.stdout);
      endless.kill();
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toBe(
        'uas: recording on stdin is a JSON document larger than 64 MiB, the most uas check reads whole; give the records one a line (NDJSON, as uas serve --record writes them), which has no size limit\n',
      );
    },
    30_000,
  );
});

describe('uas check --journal: text from records', () => {
  const hostile = 'x\u009b31m\u202eevil\u2066';

  it('escapes C1 and bidi controls in --json strings as \\u escapes', async () => {
    const path = join(dir, 'hostile.ndjson');
    writeFileSync(path, shared(hostile));
    const result = await runCli(['check', '--journal', path, '--json']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('x\\u009b31m\\u202eevil\\u2066');
    expect(result.stdout).not.toMatch(/[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/);
    const report = JSON.parse(result.stdout) as CheckReport;
    expect(report.findings[0]?.evidence.values[0]).toContain(hostile);
  });

  it('escapes them in an error that quotes a record', async () => {
    const path = join(dir, 'bad-operation.ndjson');
    const record = JSON.parse(emailAsCallerId().split('\n')[0]!) as Record<string, unknown>;
    writeFileSync(path, `${JSON.stringify({ ...record, operation: hostile })}\n`);
    const result = await runCli(['check', '--journal', path]);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      `uas: recording ${path}, line 1: not a request record (operation: expected one of "exists", "start", "verify"; got "x\\u009b31m\\u202eevil\\u2066")\n`,
    );
  });

  it('says what a number out of its range should have been', async () => {
    const path = join(dir, 'out-of-range.ndjson');
    const record = JSON.parse(emailAsCallerId().split('\n')[0]!) as Record<string, unknown>;
    const read = async (change: Record<string, unknown>) => {
      writeFileSync(path, `${JSON.stringify({ ...record, ...change })}\n`);
      return (await runCli(['check', '--journal', path])).stderr;
    };
    expect(await read({ retry_after: -5 })).toBe(
      `uas: recording ${path}, line 1: not a request record (retry_after: expected a number of at least 0; got -5)\n`,
    );
    expect(await read({ status: 1000 })).toBe(
      `uas: recording ${path}, line 1: not a request record (status: expected a number of at most 999; got 1000)\n`,
    );
    expect(await read({ method: 'x'.repeat(5000) })).toContain(
      '(method: expected at most 1024 characters; got 5000)',
    );
  });
});
