import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/check/check-report.js';
import type { CommandOutcome } from '../../src/check/command-outcome.js';
import { runCli } from '../helpers/run-cli.js';

// The reports of `uas check -- <command>` agree with its exit code, and stay usable once the
// emulator it started is gone.

const dir = mkdtempSync(join(tmpdir(), 'uas-check-reports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let blocker: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (blocker ? blocker.close(resolve) : resolve(undefined)));
  blocker = undefined;
});

type JsonReport = CheckReport & { summary: { command?: CommandOutcome }; dropped: number };

/** A node script: `count` exists requests without caller_id (caller-id-missing), then `exit`. */
const sender = (count: number, exit: number) => [
  process.execPath,
  '--input-type=module',
  '-e',
  `for (let index = 0; index < ${count}; index++)
     await fetch(process.env.UAS_URL + '/v1/users/exists?email=user' + index + '%40example.com', {
       headers: { authorization: 'Bearer ' + process.env.UAS_TOKEN } });
   console.log('url', process.env.UAS_URL);
   process.exit(${exit});`,
];

describe('uas check -- <command>: reports', () => {
  it("gives the command's exit in --json's summary and as a JUnit test case of its own", async () => {
    const junit = join(dir, 'failed.xml');
    const result = await runCli([
      'check',
      '--chaos',
      '0',
      '--json',
      '--junit',
      junit,
      '--',
      ...sender(1, 3),
    ]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.summary.command).toEqual({
      exit_code: 3,
      signal: null,
      stopped_by: null,
      left_running: false,
      failed: true,
      message: 'the command exited 3',
    });
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuite name="uas check" tests="15" failures="2"');
    expect(xml).toMatch(
      /<testcase classname="uas.check" name="command">\n\s+<failure type="command" message="the command exited 3">/,
    );
  });

  it('names the requests of each finding with method, path, fields, status and time', async () => {
    const result = await runCli(['check', '--chaos', '0', '--json', '--', ...sender(2, 0)]);
    const [finding] = (JSON.parse(result.stdout) as JsonReport).findings;
    expect(finding?.rule).toBe('caller-id-missing');
    expect(finding?.evidence.requests).toEqual([
      {
        id: 1,
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as string,
        method: 'GET',
        path: '/v1/users/exists',
        status: 200,
        fields: { email: 'user0@example.com' },
      },
      expect.objectContaining({ id: 2, fields: { email: 'user1@example.com' } }),
    ]);
    const text = await runCli(['check', '--chaos', '0', '--', ...sender(1, 0)]);
    expect(text.stdout).toMatch(
      /^ {4}#1 \d{4}-\d\d-\d\dT[\d:.]+Z GET \/v1\/users\/exists 200 \{"email":"user0@example.com"\}$/m,
    );
  });

  it('writes what the command sent with --record, as uas serve --record does, for --journal', async () => {
    const path = join(dir, 'sent.ndjson');
    const run = await runCli([
      'check',
      '--chaos',
      '0',
      '--json',
      '--record',
      path,
      '--',
      ...sender(3, 0),
    ]);
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => (JSON.parse(line) as { id: number }).id)).toEqual([1, 2, 3]);
    const again = await runCli(['check', '--json', '--journal', path]);
    expect(again.code).toBe(run.code);
    const { command, ...summary } = (JSON.parse(run.stdout) as JsonReport).summary;
    expect(command?.exit_code).toBe(0);
    // The same report, but for how the command ended and the seed of its emulator's chaos.
    const { seed, ...ran } = JSON.parse(run.stdout) as { seed: number };
    expect(seed).toEqual(expect.any(Number));
    expect(JSON.parse(again.stdout)).toEqual({ ...ran, summary });
  });

  it.runIf(process.platform === 'linux')(
    'still gives the report and its files when --record cannot be written once the command ran (a full disk)',
    async () => {
      const junit = join(dir, 'full-disk.xml');
      const result = await runCli([
        'check',
        '--chaos',
        '0',
        '--json',
        '--junit',
        junit,
        '--record',
        '/dev/full',
        '--',
        ...sender(2, 0),
      ]);
      expect(result.code).toBe(2);
      // What the command sent is judged, and said, though it could not be kept.
      const report = JSON.parse(result.stdout) as JsonReport;
      expect(report.findings.map((finding) => finding.rule)).toEqual(['caller-id-missing']);
      expect(readFileSync(junit, 'utf8')).toContain('name="caller-id-missing"');
      expect(result.stderr).toMatch(/\nuas: cannot write --record \/dev\/full: ENOSPC\n$/);
    },
  );

  it('starts the emulator on --port, and says in one line when that port is taken', async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    const taken = await runCli(['check', '--port', String(port), '--', ...sender(1, 0)]);
    expect(taken).toMatchObject({ code: 1, stdout: '' });
    expect(taken.stderr).toBe(
      `uas: --port ${port} is already in use on 127.0.0.1; choose another, or 0 for a free one\n`,
    );
    await new Promise((resolve) => blocker!.close(resolve));
    blocker = undefined;
    const free = await runCli([
      'check',
      '--chaos',
      '0',
      '--port',
      String(port),
      '--',
      ...sender(1, 0),
    ]);
    expect(free.stderr).toContain(`url http://127.0.0.1:${port}\n`);
  });

  it.each([
    ['--port', ['check', '--port', '4010', '--journal', 'x.ndjson']],
    ['--record', ['check', '--record', 'x.ndjson', '--url', 'http://127.0.0.1:9']],
    // Those with a default too: given, they would change nothing without a command.
    ['--chaos', ['check', '--url', 'http://127.0.0.1:9', '--chaos', '0.5']],
    ['--chaos-retry-after', ['check', '--journal', 'x.ndjson', '--chaos-retry-after', '3']],
    ['--seed', ['check', '--journal', 'x.ndjson', '--seed', '7']],
    ['--limits', ['check', '--url', 'http://127.0.0.1:9', '--limits', 'tight']],
    ['--timeout', ['check', '--journal', 'x.ndjson', '--timeout', '5s']],
    ['--config', ['check', '-c', 'my-uas.json', '--journal', 'x.ndjson']],
  ])('refuses %s without a command, in one line (exit 2)', async (flag, args) => {
    const result = await runCli(args);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      `uas: ${flag} is for the emulator uas check starts for a command (uas check ${flag} ... -- <command>)\n`,
    );
  });
});
