import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/check/check-report.js';
import type { CommandOutcome } from '../../src/check/command-outcome.js';
import { runCli } from '../helpers/run-cli.js';
import { UAS_BIN } from '../helpers/spawn-uas.js';

// How `uas check -- <command>` runs the command: to the command's own end, in a process group
// of its own that never outlives uas, its output passed through as bytes.

/** A request with a caller_id, then exit 0: a run with no finding. */
const SEND_ONE = `fetch(process.env.UAS_URL + '/v1/users/exists?email=a@example.com&caller_id=203.0.113.9', {
  headers: { authorization: 'Bearer ' + process.env.UAS_TOKEN } }).then((answer) => process.exit(answer.ok ? 0 : 1));`;

/** `sh -c script` with the node binary as $0 and SEND_ONE as $1. */
const shell = (script: string) => ['sh', '-c', script, process.execPath, SEND_ONE];

type JsonReport = CheckReport & { summary: { command?: CommandOutcome } };

/** Whether a process runs: a zombie (ended, not yet reaped by its new parent) does not. */
function runs(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform === 'linux' ? false : true;
  }
}

const pidIn = (text: string) => Number(/bg=(\d+)/.exec(text)?.[1]);

describe.skipIf(process.platform === 'win32')('uas check -- <command>: its processes', () => {
  it('stops waiting when the command exits, and ends what it left running in the background', async () => {
    // sh sends a request, starts sleep in the background and exits; sleep holds the pipes.
    const leftOver = await runCli([
      'check',
      '--chaos',
      '0',
      '--json',
      '--',
      ...shell('"$0" -e "$1"; sleep 1000 & echo "bg=$!"'),
    ]);
    expect(leftOver.code, leftOver.stderr).toBe(0);
    const command = (JSON.parse(leftOver.stdout) as JsonReport).summary.command;
    expect(command).toEqual({
      exit_code: 0,
      signal: null,
      stopped_by: null,
      left_running: true,
      failed: false,
      message: 'the command exited 0; processes it left running were ended',
    });
    const pid = pidIn(leftOver.stderr);
    expect(pid).toBeGreaterThan(0);
    expect(runs(pid)).toBe(false);
  }, 30_000);

  it('kills what ignores SIGTERM once the grace is over', async () => {
    const result = await runCli([
      'check',
      '--chaos',
      '0',
      '--',
      ...shell('"$0" -e "$1"; trap "" TERM; sleep 1000 & echo "bg=$!"'),
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(runs(pidIn(result.stderr))).toBe(false);
  }, 30_000);

  it.each(['SIGINT', 'SIGHUP'] as const)(
    'ends the whole group when uas gets %s (Ctrl-C, a closed terminal), reports what was sent, and exits 1',
    async (signal) => {
      const uas = spawn(
        process.execPath,
        [
          UAS_BIN,
          'check',
          '--chaos',
          '0',
          '--json',
          '--',
          ...shell('"$0" -e "$1"; sleep 1000 & echo "bg=$!"; wait'),
        ],
        { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      uas.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      // 'close', not 'exit': once uas's output has been read to its end.
      const exited = new Promise<number | null>((resolve) => uas.on('close', resolve));
      const pid = await new Promise<number>((resolve) =>
        uas.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          if (/bg=\d+\n/.test(stderr)) resolve(pidIn(stderr));
        }),
      );
      expect(runs(pid)).toBe(true);
      uas.kill(signal);
      expect(await exited, stderr).toBe(1);
      expect(runs(pid), stderr).toBe(false);
      expect(stderr).toContain(
        `uas: the command was stopped: uas check got ${signal}, so uas check fails too`,
      );
      const command = (JSON.parse(stdout) as JsonReport).summary.command;
      expect(command).toMatchObject({ stopped_by: signal, failed: true });
    },
    30_000,
  );

  it('says a command stopped by Ctrl-C before it sent anything was stopped, not that it may not call UAS_URL', async () => {
    const uas = spawn(
      process.execPath,
      [UAS_BIN, 'check', '--', 'sh', '-c', 'echo started >&2; sleep 1000 & wait'],
      { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => uas.on('close', resolve));
    await new Promise<void>((resolve) =>
      uas.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('started\n')) resolve();
      }),
    );
    uas.kill('SIGINT');
    expect(await exited, stderr).toBe(1);
    expect(stderr).toContain(
      'uas: nothing was judged: the command was stopped (uas got SIGINT) before it sent a request to the service\n',
    );
    expect(stderr).not.toContain('does it call UAS_URL');
  }, 30_000);

  it('takes a --timeout longer than a timer holds (2^31-1 ms)', async () => {
    const result = await runCli([
      'check',
      '--chaos',
      '0',
      '--timeout',
      '30d',
      '--',
      process.execPath,
      '-e',
      SEND_ONE,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('uas check: the command exited 0\n');
  });

  it("passes the command's output through byte for byte, a character split between writes whole", async () => {
    // "€" is e2 82 ac: its first two bytes, then (a moment later, in another write) the last,
    // a byte that is not UTF-8 at all, and a newline.
    const script = `process.stdout.write(Buffer.from([0xe2, 0x82]));
      setTimeout(() => process.stdout.write(Buffer.from([0xac, 0xff, 0x0a])), 100);`;
    const uas = spawn(process.execPath, [UAS_BIN, 'check', '--', process.execPath, '-e', script], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const chunks: Buffer[] = [];
    uas.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    await new Promise((resolve) => uas.on('close', resolve));
    const stderr = Buffer.concat(chunks);
    expect(stderr.includes(Buffer.from([0x0a, 0xe2, 0x82, 0xac, 0xff, 0x0a]))).toBe(true);
  });

  it("starts its own line on a line of its own when the command's output ended mid-line", async () => {
    const result = await runCli([
      'check',
      '--chaos',
      '0',
      '--',
      process.execPath,
      '-e',
      `${SEND_ONE}; process.stdout.write('no newline at the end');`,
    ]);
    expect(result.stderr).toContain('no newline at the end\nuas check: the command exited 0\n');
  });
});
