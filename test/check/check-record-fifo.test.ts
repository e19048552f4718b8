import { spawn, spawnSync } from 'node:child_process';
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
});
