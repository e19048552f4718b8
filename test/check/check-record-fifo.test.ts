import { spawn, spawnSync } from 'node:child_process';
import { UAS_BIN } from '../helpers/spawn-uas.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'uas-check-fifo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fifo(name: string): string {
  const path = join(dir, name);
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
  return path;
}

const SENDS_ONE = `await fetch(process.env.UAS_URL + '/v1/users/exists?email=a%40b.co&caller_id=203.0.113.1', { headers: { authorization: 'Bearer ' + process.env.UAS_TOKEN } });`;

describe.skipIf(process.platform === 'win32')('uas check --record at a FIFO', () => {
  it('refuses a FIFO nobody reads at once, in one line, exit 2, instead of waiting for a reader', async () => {
    const path = fifo('nobody.fifo');
    const result = await runCli(['check', '--record', path, '--timeout', '2s', '--', 'true']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `uas: cannot open --record ${path}: it is a FIFO that nobody reads; start its reader first (cat ${path} > sent.ndjson &), or give a file\n`,
    });
  }, 10_000);

  it('writes to a FIFO that a reader holds', async () => {
    const path = fifo('read.fifo');
    const out = join(dir, 'read.ndjson');
    const reader = spawn('sh', ['-c', `cat "${path}" > "${out}"`]);
    const closed = new Promise((resolve) => reader.once('close', resolve));
    // The reader holds the FIFO once its open returns: wait until a writer's probe succeeds.
    const result = await (async () => {
      for (;;) {
        const attempt = await runCli([
          'check',
          '--chaos',
          '0',
          '--record',
          path,
          '--',
          process.execPath,
          '--input-type=module',
          '-e',
          SENDS_ONE,
        ]);
        if (!attempt.stderr.includes('nobody reads')) return attempt;
      }
    })();
    expect(result.code).toBe(0);
    await closed;
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(1);
  }, 20_000);

  it('still gives its report when SIGTERM comes while a slow reader holds up the recording', async () => {
    const path = fifo('slow.fifo');
    // A reader that holds the FIFO and reads nothing: 400 records do not fit in its buffer.
    const reader = spawn('sh', ['-c', 'exec sleep 60 < "$0"', path], { stdio: 'ignore' });
    const sends = `for (let i = 0; i < 400; i++) ${SENDS_ONE.replace('a%40b.co', 'a' + "' + i + '" + '%40b.co')}`;
    try {
      for (;;) {
        const uas = spawn(
          process.execPath,
          [
            UAS_BIN,
            'check',
            '--chaos',
            '0',
            '--json',
            '--record',
            path,
            '--',
            process.execPath,
            '--input-type=module',
            '-e',
            sends,
          ],
          { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
        );
        let stdout = '';
        let stderr = '';
        uas.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        const closed = new Promise<number | null>((resolve) => uas.once('close', resolve));
        // Once the command has ended (uas says so), uas writes the recording, held up by the reader.
        const said = await Promise.race([
          new Promise<boolean>((resolve) =>
            uas.stderr.on('data', (chunk: Buffer) => {
              stderr += chunk.toString();
              if (/the command exited|nobody reads/.test(stderr)) resolve(true);
            }),
          ),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000)),
        ]);
        if (stderr.includes('nobody reads')) continue; // the reader has not opened it yet
        expect(said, stderr).toBe(true);
        uas.kill('SIGTERM');
        const code = await Promise.race([
          closed,
          new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 10_000)),
        ]);
        uas.kill('SIGKILL');
        // Exit 1: 400 requests at once meet findings (the report says which); not killed by SIGTERM.
        expect(code).toBe(1);
        const report = JSON.parse(stdout) as { summary: { requests: number }; warnings: string[] };
        expect(report.summary.requests).toBe(400);
        expect(report.warnings).toEqual([
          `uas check got SIGTERM while writing --record ${path}, so the recording was cut short (its reader did not keep up)`,
        ]);
        return;
      }
    } finally {
      reader.kill('SIGKILL');
    }
  }, 40_000);
});
