import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/check/check-report.js';
import type { CommandOutcome } from '../../src/check/command-outcome.js';
import { UAS_BIN } from '../helpers/spawn-uas.js';

// `uas check -- <command>` passes the command's output to its stderr without ever blocking: a
// reader of that stderr that stops reading must not stop the emulator, --timeout or the report.

const dir = mkdtempSync(join(tmpdir(), 'uas-check-passthrough-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 2 MB on stdout, one request, then /__uas/health (its status to the file $1), then it waits. */
const FLOOD = `
import { writeFileSync } from 'node:fs';
process.stdout.write(Buffer.alloc(2_000_000, 'x'));
const headers = { authorization: 'Bearer ' + process.env.UAS_TOKEN };
await fetch(process.env.UAS_URL + '/v1/users/exists?email=a%40b.co&caller_id=203.0.113.1', { headers });
const health = await fetch(process.env.UAS_URL + '/__uas/health');
writeFileSync(process.argv[1], String(health.status));
setInterval(() => {}, 1_000);
`;

type JsonReport = CheckReport & { summary: { command?: CommandOutcome } };

function ended(child: ChildProcess, ms: number): Promise<number | null | 'still running'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('still running'), ms);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

describe.skipIf(process.platform !== 'linux')('uas check -- <command>: its output', () => {
  it('never blocks on a stderr reader that stops reading: the emulator answers, --timeout ends it, the report says what was left out', async () => {
    const fifo = join(dir, 'stderr.fifo');
    const healthFile = join(dir, 'health');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // A reader that holds the FIFO and never reads it.
    const reader = spawn('sh', ['-c', 'exec sleep 60 < "$0"', fifo], { stdio: 'ignore' });
    const stderr = openSync(fifo, 'w');
    let stdout = '';
    const uas = spawn(
      process.execPath,
      [
        UAS_BIN,
        'check',
        '--chaos',
        '0',
        '--json',
        '--timeout',
        '3s',
        '--',
        process.execPath,
        '--input-type=module',
        '-e',
        FLOOD,
        healthFile,
      ],
      { stdio: ['ignore', 'pipe', stderr], env: { ...process.env, NO_COLOR: '1' } },
    );
    closeSync(stderr);
    uas.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const started = performance.now();
    try {
      // 3 s of --timeout, the command's 1 s to exit, 1 s for the output and 1 s for uas's lines.
      const code = await ended(uas, 20_000);
      const seconds = (performance.now() - started) / 1_000;
      expect(code).toBe(1);
      expect(seconds).toBeLessThan(15);
      expect(readFileSync(healthFile, 'utf8')).toBe('200');
      const report = JSON.parse(stdout) as JsonReport;
      expect(report.summary.command?.stopped_by).toBe('timeout');
      expect(report.summary.requests).toBe(1);
      expect(report.warnings).toEqual([
        expect.stringMatching(
          /^\d+ bytes of the command's output were left out of uas's stderr: its reader did not keep up \(at most 1048576 bytes wait for it\)$/,
        ),
      ]);
    } finally {
      uas.kill('SIGKILL');
      reader.kill('SIGKILL');
    }
  }, 30_000);
});
