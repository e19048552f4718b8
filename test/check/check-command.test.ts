import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { listen, type EmulatorHttpServer } from '../../src/adapters/http/http-server.js';
import type { CheckReport } from '../../src/check/check-report.js';
import { DEMO_MERCHANT, DEMO_TOKEN } from '../../src/demo-config.js';
import { createEmulator } from '../../src/emulator.js';
import { recordMaker, type RecordSpec } from '../helpers/check-records.js';
import { eventually } from '../helpers/eventually.js';
import { runCli } from '../helpers/run-cli.js';
import { spawnUas, waitForUrl } from '../helpers/spawn-uas.js';

const dir = mkdtempSync(join(tmpdir(), 'uas-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let server: EmulatorHttpServer | undefined;
afterEach(async () => {
  await server?.close(100);
  server = undefined;
});

const EMAILS = ['ann@example.com', 'ben@example.com', 'cat@example.com', 'dan@example.com'];

/** Writes records as `uas serve --record` does (one JSON line each) and returns the path. */
function recording(name: string, specs: RecordSpec[]): string {
  const make = recordMaker();
  const path = join(dir, name);
  writeFileSync(path, specs.map((spec) => `${JSON.stringify(make(spec))}\n`).join(''));
  return path;
}

/** Four shoppers, each with their e-mail as caller_id: a warning (caller-id-is-email) only. */
const emailAsCallerId = () =>
  recording(
    'email.ndjson',
    EMAILS.map((email, index) => ({ at: index * 10, email, callerId: email })),
  );

const reportOf = (stdout: string) => JSON.parse(stdout) as CheckReport & { dropped: number };
const rulesOf = (report: CheckReport) => report.findings.map((finding) => finding.rule);

/** A service request as an integration would send it (no caller_id unless given). */
function exists(url: string, email: string, token = DEMO_TOKEN): Promise<Response> {
  return fetch(`${url}/v1/users/exists?email=${encodeURIComponent(email)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
}

describe('uas check --journal', () => {
  it('passes a warning by default and fails on it with --fail-on warn', async () => {
    const path = emailAsCallerId();
    const lenient = await runCli(['check', '--journal', path]);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toMatch(/^warn {2}caller-id-is-email$/m);
    const strict = await runCli(['check', '--journal', path, '--fail-on', 'warn']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toBe(lenient.stdout);
  });

  it('writes the JUnit and Markdown reports beside the one it prints', async () => {
    const path = emailAsCallerId();
    const junit = join(dir, 'report.xml');
    const markdown = join(dir, 'report.md');
    const result = await runCli([
      'check',
      '--journal',
      path,
      '--junit',
      junit,
      '--markdown',
      markdown,
    ]);
    expect(result.code).toBe(0);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/^<\?xml /);
    // Exit 0 (a warning, --fail-on error): no failure in the JUnit report either.
    expect(xml).toContain('<testsuite name="uas check" tests="14" failures="0"');
    expect(xml).toMatch(
      /<testcase classname="uas.check" name="caller-id-is-email">\s+<system-out>warn: below --fail-on\n/,
    );
    const md = readFileSync(markdown, 'utf8');
    expect(md).toMatch(/^### uas check: 0 errors, 1 warning$/m);
    expect(md).toContain('| `caller-id-is-email` | warn | ⚠️ failed |');
  });

  it('refuses, before any work, a report file that is the recording it reads or writes', async () => {
    const path = emailAsCallerId();
    const before = readFileSync(path, 'utf8');
    const same = await runCli([
      'check',
      '--journal',
      path,
      '--junit',
      join(dir, '.', 'email.ndjson'),
    ]);
    expect(same).toMatchObject({ code: 2, stdout: '' });
    expect(same.stderr).toBe(
      `uas: --junit and --journal name the same file, ${path}: give the report a name of its own\n`,
    );
    // The recording is as it was: not replaced by the report.
    expect(readFileSync(path, 'utf8')).toBe(before);

    const sent = join(dir, 'sent-and-report.out');
    const both = await runCli(['check', '--record', sent, '--markdown', sent, '--', 'true']);
    expect(both).toMatchObject({ code: 2, stdout: '' });
    expect(both.stderr).toBe(
      `uas: --markdown and --record name the same file, ${sent}: give the report a name of its own\n`,
    );
    const reports = await runCli(['check', '--journal', path, '--junit', sent, '--markdown', sent]);
    expect(reports.code).toBe(2);
    expect(reports.stderr).toContain('--junit and --markdown name the same file');
  });

  it('reads a whole JSON document too, such as GET /__uas/requests answers', async () => {
    const lines = readFileSync(emailAsCallerId(), 'utf8').trim().split('\n');
    const path = join(dir, 'requests.json');
    writeFileSync(path, `{"requests": [${lines.join(',')}], "dropped": 0}`);
    const result = await runCli(['check', '--journal', path, '--json']);
    expect(rulesOf(reportOf(result.stdout))).toEqual(['caller-id-is-email']);
  });

  it('judges a recording whose last line was cut short, and says which line it left out', async () => {
    const path = emailAsCallerId();
    appendFileSync(path, '{"id":5,"at":1767225600040,"method":"GET","path":"/v1/us');
    const result = await runCli(['check', '--journal', path, '--json']);
    expect(result.code).toBe(0);
    expect(reportOf(result.stdout).summary.requests).toBe(4);
    expect(result.stderr).toBe(
      `uas: recording ${path}, line 5: cut short (the server stopped while writing it); judged without it\n`,
    );
  });

  it('refuses a line that is not JSON anywhere else, naming it, and judges nothing', async () => {
    const path = emailAsCallerId();
    const lines = readFileSync(path, 'utf8').split('\n');
    lines.splice(1, 0, 'not json');
    writeFileSync(path, lines.join('\n'));
    const inside = await runCli(['check', '--journal', path]);
    expect(inside).toMatchObject({ code: 2, stdout: '' });
    expect(inside.stderr).toBe(`uas: recording ${path}, line 2: not JSON\n`);

    // A last line with its newline was written whole: not JSON there is no cut.
    writeFileSync(path, `${readFileSync(emailAsCallerId(), 'utf8')}{"id":\n`);
    const last = await runCli(['check', '--journal', path]);
    expect(last.code).toBe(2);
    expect(last.stderr).toBe(`uas: recording ${path}, line 5: not JSON\n`);
  });

  it('judges what uas serve --record wrote before it was killed: every answered request', async () => {
    const path = join(dir, 'killed.ndjson');
    const serve = spawnUas(['serve', '--port', '0', '--chaos', '0', '--record', path]);
    try {
      const url = await waitForUrl(serve);
      // Eleven requests answered, the last three with a token nobody has; then a dev-API call,
      // which is not recorded.
      for (const email of [...EMAILS, ...EMAILS])
        expect((await exists(url, email)).status).toBe(200);
      for (const email of EMAILS.slice(0, 3))
        expect((await exists(url, email, 'not-a-token')).status).toBe(401);
      expect(await fetch(`${url}/__uas/health`).then((answer) => answer.status)).toBe(200);
      // Lines are written a moment after their answers (never blocking them): wait until the
      // server says all eleven are out, then kill it.
      await eventually(async () =>
        /^uas_recording_written_records_total 11$/m.test(
          await fetch(`${url}/__uas/metrics`).then((answer) => answer.text()),
        ),
      );
    } finally {
      serve.child.kill('SIGKILL');
      await serve.exited;
    }
    const text = readFileSync(path, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(11);
    expect(lines.map((line) => (JSON.parse(line) as { status: number }).status)).toEqual([
      ...Array<number>(8).fill(200),
      401,
      401,
      401,
    ]);

    const result = await runCli(['check', '--journal', path, '--json']);
    expect(result.code).toBe(1);
    const report = reportOf(result.stdout);
    expect(report.summary).toMatchObject({ requests: 11, by_status: { 200: 8, 401: 3 } });
    expect(rulesOf(report).sort()).toEqual(['caller-id-missing', 'unauthenticated']);
  });
});

describe('uas check --url and GET /__uas/check', () => {
  it('judges what a running emulator has seen, as GET /__uas/check does', async () => {
    server = await listen(createEmulator(), 0, '127.0.0.1');
    for (const email of EMAILS) expect((await exists(server.url, email)).status).toBe(200);

    const result = await runCli(['check', '--url', server.url, '--json']);
    expect(result.code).toBe(1);
    const report = reportOf(result.stdout);
    expect(rulesOf(report)).toEqual(['caller-id-missing']);
    expect(report.dropped).toBe(0);

    const answer = await fetch(`${server.url}/__uas/check`);
    expect(answer.status).toBe(200);
    const served = (await answer.json()) as CheckReport & { dropped: number };
    // The CLI adds its verdict (the dev API knows no --fail-on): the rest is the same report.
    const { verdict, ...judged } = report as typeof report & { verdict: unknown };
    expect(verdict).toEqual({ failed: true, reasons: ['1 finding at --fail-on error or worse'] });
    expect(served).toEqual(judged);
  });

  it('prints the text report, worst first, for a person', async () => {
    server = await listen(createEmulator(), 0, '127.0.0.1');
    const start = (email: string) =>
      fetch(`${server!.url}/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email, caller_id: email }),
      });
    expect((await start('alice@example.com')).status).toBe(200);
    expect((await exists(server.url, 'bob@example.com', 'wrong')).status).toBe(401);
    const result = await runCli(['check', '--url', server.url]);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n').filter((line) => /^(error|warn) /.test(line))).toEqual([
      'error unauthenticated',
      'warn  caller-id-is-email',
    ]);
    expect(result.stdout).toMatch(/^uas check: 1 error, 1 warning, /m);
  });

  it('says in one line, exit 4, when nothing listens at --url', async () => {
    const port = await freePort();
    const result = await runCli(['check', '--url', `http://127.0.0.1:${port}`]);
    expect(result.code).toBe(4);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).toBe('');
  });

  it('says so when the emulator has seen no service request', async () => {
    server = await listen(createEmulator(), 0, '127.0.0.1');
    await fetch(`${server.url}/__uas/health`);
    const result = await runCli(['check', '--url', server.url]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toBe(
      `uas: nothing was judged: the emulator at ${server.url} has seen no request to the service (/v1/...)\n`,
    );
  });
});

describe('uas check -- <command>', () => {
  it('fails in one clear line when the command sent nothing', async () => {
    const result = await runCli(['check', '--', process.execPath, '-e', '']);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr.trim().split('\n').at(-1)).toBe(
      'uas: nothing was judged: the command sent no request to the service; does it call UAS_URL (with UAS_TOKEN and UAS_MERCHANT_ID)?',
    );
  });

  it('names the command it runs with its controls, C1 and bidirectional ones too, escaped', async () => {
    const result = await runCli([
      'check',
      '--',
      process.execPath,
      '-e',
      '',
      'title \u001b]0;x\u0007 csi \u009b2J flipped \u202eevil',
    ]);
    const first = result.stderr.split('\n')[0] ?? '';
    expect(first).toMatch(/^uas check: emulator at .*; running /);
    // eslint-disable-next-line no-control-regex -- looking for control characters
    expect(first).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    expect(first).toContain('"title \\u001b]0;x\\u0007 csi \\x9b2J flipped \\u202eevil"');
  });

  it('gives the command the emulator, a token and a merchant, and fails when the command fails', async () => {
    // A clean request, then a failing test run: the check is clean, the command is not.
    const script = `
      const { UAS_URL, UAS_TOKEN, UAS_MERCHANT_ID } = process.env;
      const answer = await fetch(UAS_URL + '/v1/merchants/' + UAS_MERCHANT_ID + '/users/passwordless/start', {
        method: 'POST',
        headers: { authorization: 'Bearer ' + UAS_TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'alice@example.com', caller_id: '203.0.113.9' }),
      });
      console.log('start answered', answer.status);
      process.exit(3);`;
    const result = await runCli([
      'check',
      '--chaos',
      '0',
      '--json',
      '--',
      process.execPath,
      '--input-type=module',
      '-e',
      script,
    ]);
    expect(result.code).toBe(1);
    expect(reportOf(result.stdout).findings).toEqual([]);
    expect(result.stderr).toContain('start answered 200\n');
    expect(result.stderr).toMatch(
      /uas: the command exited 3, so uas check fails too \(the report above is what it sent\)\n$/,
    );
  });

  it('stops a command that outlives --timeout, and fails', async () => {
    const script = `fetch(process.env.UAS_URL + '/v1/users/exists?email=a@example.com', {
      headers: { authorization: 'Bearer ' + process.env.UAS_TOKEN } }).then(() => setTimeout(() => {}, 60000));`;
    const result = await runCli([
      'check',
      '--chaos',
      '0',
      '--timeout',
      '1s',
      '--',
      process.execPath,
      '-e',
      script,
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^error caller-id-missing$/m);
    expect(result.stderr).toContain(
      'uas check: the command ran longer than --timeout 1s and was stopped\n',
    );
  });
});

describe('uas check on a command stopped before it sent anything', () => {
  it('says it was stopped at its --timeout, not that it may not call UAS_URL', async () => {
    const result = await runCli([
      'check',
      '--timeout',
      '1s',
      '--',
      process.execPath,
      '-e',
      'setTimeout(() => {}, 60000)',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'uas: nothing was judged: the command was stopped at its --timeout before it sent a request to the service\n',
    );
    expect(result.stderr).not.toContain('does it call UAS_URL');
  });
});

describe('uas check usage errors', () => {
  it.each([
    ['no source', ['check']],
    ['two sources', ['check', '--url', 'http://127.0.0.1:9', '--journal', 'x.ndjson']],
    ['a command and a source', ['check', '--journal', 'x.ndjson', '--', 'node', 'x.mjs']],
    ['an unknown command to run', ['check', '--', 'uas-no-such-command-to-run']],
    ['a bad --timeout', ['check', '--timeout', 'soon', '--', 'node', 'x.mjs']],
    ['a bad --chaos', ['check', '--chaos', '2', '--', 'node', 'x.mjs']],
    ['a bad --fail-on', ['check', '--journal', 'x.ndjson', '--fail-on', 'info']],
    ['a recording that does not exist', ['check', '--journal', '/nonexistent/x.ndjson']],
  ])('%s: one line, exit 2', async (_name, args) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
    expect(result.stderr).toMatch(/^(uas|error): /);
    expect(result.stdout).toBe('');
  });
});

/** A port nothing listens on (it was free a moment ago). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
