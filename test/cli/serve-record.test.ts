import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/check/check-report.js';
import { DEMO_TOKEN } from '../../src/demo-config.js';
import { eventually } from '../helpers/eventually.js';
import { HAS_REDIS } from '../helpers/redis-server.js';
import { runCli } from '../helpers/run-cli.js';
import { spawnUas, waitForUrl, type UasProcess } from '../helpers/spawn-uas.js';
import { tempDir } from '../helpers/temp-dir.js';

const running: UasProcess[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const uas of running.splice(0)) {
    if (uas.child.exitCode === null) {
      uas.child.kill('SIGKILL');
      await uas.exited;
    }
  }
});

/** Limits no test can reach: every request is answered 200. */
const NO_LIMITS = ['--client-burst', '1000000', '--client-rate', '1000000/s'];

async function serve(args: string[]) {
  const uas = spawnUas(['serve', '--port', '0', '--log', 'off', ...NO_LIMITS, ...args]);
  running.push(uas);
  return { uas, url: await waitForUrl(uas) };
}

/** One exists request; its status, within 10 s or the test fails. */
async function exists(url: string, email: string): Promise<number> {
  const answer = await fetch(`${url}/v1/users/exists?email=${encodeURIComponent(email)}`, {
    headers: { authorization: `Bearer ${DEMO_TOKEN}` },
    signal: AbortSignal.timeout(10_000),
  });
  await answer.arrayBuffer();
  return answer.status;
}

/** `count` requests, eight at a time; their statuses. */
async function many(url: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) statuses.push(await exists(url, `shopper${next++}@example.com`));
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return statuses;
}

/** The recording's counters, from GET /__uas/metrics. */
async function counters(url: string) {
  const text = await (await fetch(`${url}/__uas/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
  return {
    written: read('uas_recording_written_records_total'),
    lost: read('uas_recording_lost_records_total'),
    buffered: read('uas_recording_buffered_records'),
  };
}

const linesOf = (path: string) =>
  existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
const emailsOf = (path: string) =>
  linesOf(path).map((line) => (JSON.parse(line) as { email?: string }).email);

describe.skipIf(process.platform === 'win32')('uas serve --record', () => {
  it('keeps answering while the reader of its pipe has stopped reading, counts and says what it left out, and marks it in the recording', async () => {
    const dir = tempDir('uas-record-');
    const fifo = join(dir, 'requests.fifo');
    execFileSync('mkfifo', [fifo]);
    // A reader that holds the pipe open and never reads from it.
    const stalled = spawn('sh', ['-c', 'exec sleep 600 < "$0"', fifo], { stdio: 'ignore' });
    children.push(stalled);
    const { uas, url } = await serve(['--record', fifo, '--record-buffer', '64kb']);

    // About 400 KB of records: the pipe holds 64 KiB, the buffer 64 KiB more.
    const total = 1_000;
    const statuses = await many(url, total);
    expect(statuses.filter((status) => status === 200)).toHaveLength(total);
    const stuck = await counters(url);
    expect(stuck.lost).toBeGreaterThan(0);
    expect(stuck.written + stuck.lost + stuck.buffered).toBe(total);
    expect(uas.stderr()).toContain(
      `uas: recording to ${fifo} falls behind: its buffer (65536 bytes) is full, so requests are left out of it`,
    );

    // A reader that reads: what was held goes out, with a line that says what was lost.
    const out = join(dir, 'requests.ndjson');
    // It says when it holds the pipe open: the stalled reader is stopped only then, as a pipe
    // with no reader at all would throw away what it holds.
    const reader = spawn('sh', ['-c', 'exec 3< "$0"; echo open; exec cat <&3 > "$1"', fifo, out], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    children.push(reader);
    const readerDone = new Promise((resolve) => reader.on('exit', resolve));
    await new Promise((resolve) => reader.stdout.once('data', resolve));
    stalled.kill('SIGKILL');
    await eventually(async () => (await counters(url)).buffered === 0, 10_000);
    expect(await counters(url)).toEqual({ ...stuck, written: total - stuck.lost, buffered: 0 });
    uas.child.kill('SIGTERM');
    expect(await uas.exited).toBe(0);
    await readerDone;
    expect(uas.stderr()).toContain(
      `uas: recording to ${fifo} goes on; ${stuck.lost} requests lost so far (a loss line in it says when)`,
    );

    const check = await runCli(['check', '--journal', out, '--json']);
    const report = JSON.parse(check.stdout) as CheckReport;
    expect(report.summary.requests).toBe(total - stuck.lost);
    expect(report.warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^the recording lost ${stuck.lost} requests between .+ \\(buffer-full; 1 loss marker\\); they are not judged$`,
        ),
      ),
    ]);
  });

  it('writes every record whole, as the dev API reads it: fields parsed, fingerprinted, a client token redacted', async () => {
    const path = join(tempDir('uas-record-'), 'requests.ndjson');
    const { uas, url } = await serve(['--record', path]);
    const query = `email=a%40example.com&note=${DEMO_TOKEN}&caller_id=u1`;
    const answer = await fetch(`${url}/v1/users/exists?${query}`, {
      headers: { authorization: `Bearer ${DEMO_TOKEN}` },
    });
    expect(answer.status).toBe(200);
    const journal = (await (await fetch(`${url}/__uas/requests`)).json()) as {
      requests: Array<Record<string, unknown>>;
    };
    uas.child.kill('SIGTERM');
    expect(await uas.exited).toBe(0);
    const lines = linesOf(path);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(DEMO_TOKEN);
    const recorded = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(recorded).toMatchObject({
      email: 'a@example.com',
      caller_id: 'u1',
      caller_id_source: 'query',
      fields: { email: 'a@example.com', note: `…(${DEMO_TOKEN.length} chars)`, caller_id: 'u1' },
    });
    expect(recorded.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(recorded).toEqual(journal.requests[0]);
  });

  it('ends the last line a run before cut short, with a loss line, before it appends: uas check reads the file', async () => {
    const path = join(tempDir('uas-record-'), 'requests.ndjson');
    const cut =
      '{"id":7,"at":1795796012406,"method":"GET","path":"/v1/users/exists","operation":"ex';
    writeFileSync(path, cut);
    const { uas, url } = await serve(['--record', path]);
    expect(await exists(url, 'a@example.com')).toBe(200);
    uas.child.kill('SIGTERM');
    expect(await uas.exited).toBe(0);
    const lines = linesOf(path);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(cut);
    expect(JSON.parse(lines[1]!)).toMatchObject({
      uas_recording: 'loss',
      lost: 1,
      reason: 'cut-short',
    });
    expect(JSON.parse(lines[2]!)).toMatchObject({ email: 'a@example.com', status: 200 });
    const check = await runCli(['check', '--journal', path, '--json']);
    expect(check.code).not.toBe(2);
    const report = JSON.parse(check.stdout) as CheckReport;
    expect(report.summary.requests).toBe(1);
    expect(report.warnings).toEqual([
      expect.stringMatching(/lost 1 request .*\(cut-short; 1 loss marker\)/),
    ]);
  });

  it.skipIf(!HAS_REDIS)(
    'ends a line cut short once, before any worker appends, with --workers',
    async () => {
      const path = join(tempDir('uas-record-'), 'requests.ndjson');
      writeFileSync(path, '{"id":7,"at":1795796012406,"method":"GET","pa');
      const { uas, url } = await serve(['--record', path, '--workers', '3', '--store', 'redis']);
      expect(await many(url, 6)).toEqual(Array(6).fill(200));
      uas.child.kill('SIGTERM');
      expect(await uas.exited).toBe(0);
      const lines = linesOf(path);
      expect(lines[1]).toMatch(/^\{"uas_recording":"loss","lost":1,.*"reason":"cut-short"\}$/);
      expect(lines.slice(2).map((line) => JSON.parse(line) as { status: number })).toEqual(
        Array(6).fill(expect.objectContaining({ status: 200 })),
      );
    },
  );

  it('writes what it holds when its terminal closes (SIGHUP), as on SIGTERM, and exits 0', async () => {
    const path = join(tempDir('uas-record-'), 'requests.ndjson');
    const { uas, url } = await serve(['--record', path]);
    expect(new Set(await many(url, 200))).toEqual(new Set([200]));
    uas.child.kill('SIGHUP');
    expect(await uas.exited).toBe(0);
    expect(uas.stdout()).toContain('SIGHUP: shutting down');
    expect(linesOf(path)).toHaveLength(200);
  });

  it('keeps answering when the file cannot be written (a full disk): says once on stderr what failed, and counts every request lost', async () => {
    const { uas, url } = await serve(['--record', '/dev/full']);
    for (let index = 0; index < 5; index++)
      expect(await exists(url, `shopper${index}@example.com`)).toBe(200);
    await eventually(() => /failed: ENOSPC/.test(uas.stderr()));
    expect(uas.stderr()).toMatch(
      /^uas: recording to \/dev\/full failed: ENOSPC; [1-5] requests? lost so far\n/,
    );
    const { written, lost, buffered } = await counters(url);
    expect(written).toBe(0);
    expect(lost + buffered).toBe(5);
    expect(lost).toBeGreaterThan(0);

    uas.child.kill('SIGTERM');
    expect(await uas.exited).toBe(0);
    expect(uas.stderr().match(/failed: ENOSPC/g)).toHaveLength(1);
    expect(uas.stderr()).toMatch(
      /uas: recording to \/dev\/full: 5 requests lost in all, 0 written\n$/,
    );
  });

  it('records at its path again after the file was moved away (logrotate) or deleted, and says so', async () => {
    const path = join(tempDir('uas-record-'), 'requests.ndjson');
    const { uas, url } = await serve(['--record', path]);
    expect(await exists(url, 'ann@example.com')).toBe(200);
    await eventually(() => linesOf(path).length === 1);

    renameSync(path, `${path}.1`);
    await eventually(() => uas.stderr().includes(`${path} was moved; recording to a new`));
    expect(await exists(url, 'ben@example.com')).toBe(200);
    await eventually(() => linesOf(path).length === 1);
    expect(emailsOf(`${path}.1`)).toEqual(['ann@example.com']);
    expect(emailsOf(path)).toEqual(['ben@example.com']);

    rmSync(path);
    await eventually(() => uas.stderr().includes(`${path} was deleted`));
    expect(await exists(url, 'cat@example.com')).toBe(200);
    await eventually(() => linesOf(path).some((line) => line.includes('cat@example.com')));
    // What went to the deleted file since the last look (ben, or nothing) is counted, and marked.
    const { written, lost } = await counters(url);
    expect(written + lost).toBe(3);
    const lines = linesOf(path);
    expect(lines).toHaveLength(lost === 0 ? 1 : 2);
    if (lost > 0)
      expect(JSON.parse(lines[0]!)).toMatchObject({
        uas_recording: 'loss',
        lost: 1,
        reason: 'file-deleted',
      });
    uas.child.kill('SIGTERM');
    expect(await uas.exited).toBe(0);
  });

  it('escapes the control characters of its path in what it says while it runs', async () => {
    const path = join(tempDir('uas-record-'), 'req\u001b[2J\u001b]0;x\u0007.ndjson');
    const { uas, url } = await serve(['--record', path]);
    expect(await exists(url, 'ann@example.com')).toBe(200);
    await eventually(() => linesOf(path).length === 1);
    renameSync(path, `${path}.1`);
    await eventually(() => uas.stderr().includes('was moved; recording to a new'));
    expect(uas.stderr()).toContain('req\\x1b[2J\\x1b]0;x\\x07.ndjson was moved');
    expect(uas.stderr()).not.toContain('\u001b');
    expect(uas.stderr()).not.toContain('\u0007');
    uas.child.kill('SIGTERM');
    expect(await uas.exited).toBe(0);
  });
});
