import { Command, CommanderError } from 'commander';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type EmulatorHttpServer } from '../../src/adapters/http/http-server.js';
import type { CallDeps } from '../../src/cli/call/run-call.js';
import { registerCall } from '../../src/cli/commands/call.js';
import { isCliError } from '../../src/cli/io.js';
import { createManualClock } from '../../src/core/time/clock.js';
import type { Emulator } from '../../src/core/emulator.js';
import { createSeededRandom } from '../../src/core/time/random.js';
import { DEMO_CONFIG, DEMO_MERCHANT } from '../../src/demo-config.js';
import { createEmulator } from '../../src/emulator.js';
import { createTestClock, TEST_NOW } from '../helpers/client-clock.js';
import {
  answer,
  head,
  startHostileServer,
  stream,
  type HostileServer,
  type Misbehaviour,
} from '../helpers/hostile-server.js';
import { runCli } from '../helpers/run-cli.js';
import { runUas, spawnUas } from '../helpers/spawn-uas.js';
import { tempDir } from '../helpers/temp-dir.js';

let running: EmulatorHttpServer | undefined;
const clock = createManualClock(Date.UTC(2026, 0, 1));

async function emulatorServer(
  overrides: Record<string, unknown> = {},
  devApi = {},
): Promise<{ url: string; emulator: Emulator }> {
  const emulator = createEmulator({
    config: { ...DEMO_CONFIG, ...overrides },
    clock,
    random: createSeededRandom(2),
    devApi,
  });
  running = await listen(emulator, 0, '127.0.0.1');
  return { url: running.url, emulator };
}

const hostiles: HostileServer[] = [];

afterEach(async () => {
  await running?.close(100);
  running = undefined;
  await Promise.all(hostiles.splice(0).map((server) => server.close()));
});

async function hostile(misbehave: Misbehaviour): Promise<HostileServer> {
  const server = await startHostileServer(misbehave);
  hostiles.push(server);
  return server;
}

/** Spawns `bin/uas.js call ...args --url url`, as a user would. */
const call = (args: string[], url: string) => runUas(['call', ...args, '--url', url]);

/**
 * Runs `uas call ...args --url url` in this process, on a virtual clock (`deps`), without colour:
 * retries wait no real time. Usage errors end with exit code 2, as they do in `run()`.
 */
async function callInProcess(
  args: string[],
  url?: string,
  deps: CallDeps = createTestClock(),
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const context = {
    io: {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      env: { NO_COLOR: '1' },
      cwd: process.cwd(),
      onSignal: () => () => {},
    },
    exitCode: 0,
    argv: [],
  };
  const program = new Command('uas').exitOverride().configureOutput({
    writeOut: (text) => (stdout += text),
    writeErr: (text) => (stderr += text),
  });
  registerCall(program, context, deps);
  try {
    await program.parseAsync(['call', ...args, ...(url === undefined ? [] : ['--url', url])], {
      from: 'user',
    });
    return { code: context.exitCode, stdout, stderr };
  } catch (error) {
    // commander has written its one line already.
    if (error instanceof CommanderError) return { code: 2, stdout, stderr };
    if (!isCliError(error)) throw error;
    return { code: error.exitCode, stdout, stderr: `${stderr}uas: ${error.message}\n` };
  }
}

/** Any control character but newline and tab, or a carriage return that does not end a line. */
// eslint-disable-next-line no-control-regex -- looking for control characters
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]|\r(?!\n)/;

describe('uas call', () => {
  it('checks a user and prints status, bucket state and body', async () => {
    const { url } = await emulatorServer();
    const result = await call(
      ['exists', '--email', 'alice@example.com', '--caller-id', '203.0.113.7'],
      url,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('✔ 200  GET /v1/users/exists  (1 attempt)');
    expect(result.stdout).toContain(
      'caller bucket: 4 of 5 left, next token in 1 s  [caller:demo:203.0.113.7]',
    );
    expect(result.stdout).toContain('"token_count": 2');
  });

  it('shows the request with the token redacted and every response header with --verbose', async () => {
    const { url } = await emulatorServer();
    const result = await call(['exists', '--email', 'alice@example.com', '--verbose'], url);
    expect(result.stdout).toContain(`> GET ${url}/v1/users/exists?email=alice%40example.com`);
    expect(result.stdout).toContain('> authorization: Bearer …(14 chars)');
    expect(result.stdout).not.toContain('uas-demo-token');
    expect(result.stdout).toContain('< ratelimit-policy: "client";q=20;w=2');
    expect(result.stdout).toContain('< uas-bucket: client:demo');
  });

  it('takes -v after a command as --verbose: the call is sent, never the version printed', async () => {
    const { url, emulator } = await emulatorServer();
    const result = await runCli([
      'call',
      'start',
      '--email',
      'alice@example.com',
      '-v',
      '--url',
      url,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `> POST ${url}/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`,
    );
    expect(result.stdout).toMatch(/^✔ 200 {2}POST /m);
    expect(emulator.journal(10)).toHaveLength(1);
  });

  it('prints one JSON object with --json', async () => {
    const { url } = await emulatorServer();
    const result = await call(['exists', '--phone', '+14155550101', '--json'], url);
    const printed = JSON.parse(result.stdout);
    expect(printed).toEqual({
      operation: 'exists',
      outcome: 'success',
      status: 200,
      error: null,
      location: null,
      retry_after: null,
      rate_limit: {
        bucket: 'client:demo',
        policy: 'client',
        limit: 20,
        remaining: 19,
        reset_seconds: 1,
        window_seconds: 2,
        style: 'draft-10',
      },
      body: { exists: true, token_count: 2 },
      attempts: [
        {
          attempt: 1,
          status: 200,
          error: null,
          retry_after: null,
          wait_ms: 0,
          rate_limit: printed.rate_limit,
        },
      ],
      gave_up: null,
    });
  });

  it('starts and verifies a sign-in, exiting 1 on a wrong code', async () => {
    const { url, emulator } = await emulatorServer();
    expect(
      (await call(['start', '--merchant', DEMO_MERCHANT, '--email', 'alice@example.com'], url))
        .code,
    ).toBe(0);
    const code = emulator.latestCode('alice@example.com')?.code as string;
    const wrong = await call(
      ['verify', '--email', 'alice@example.com', '--code', code === '000000' ? '111111' : '000000'],
      url,
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain('"attempts_remaining": 4');
    const right = await call(['verify', '--email', 'alice@example.com', '--code', code], url);
    expect(right.code).toBe(0);
    expect(right.stdout).toContain('"verified": true');
  });

  it('runs the whole flow, reading the code from the dev API', async () => {
    const { url } = await emulatorServer();
    const result = await call(
      [
        'flow',
        '--email',
        'bob@example.com',
        '--forwarded-for',
        '203.0.113.7, 10.0.0.2',
        '--trusted-proxies',
        '1',
      ],
      url,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /\[1\/4\] exists[\s\S]*\[2\/4\] start[\s\S]*\[3\/4\] code\ncode \d{6}[\s\S]*\[4\/4\] verify[\s\S]*"verified": true/,
    );
    expect(result.stdout).toContain('[caller:demo:203.0.113.7]');
  });

  it('prints one JSON object for each of the four steps of flow --json, the code step included', async () => {
    const { url, emulator } = await emulatorServer();
    const result = await callInProcess(['flow', '--email', 'bob@example.com', '--json'], url);
    expect(result.code, result.stderr).toBe(0);
    const steps = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(steps.map((step) => step.operation)).toEqual(['exists', 'start', 'code', 'verify']);
    expect(steps[2]).toEqual({
      operation: 'code',
      outcome: 'success',
      source: 'dev-api',
      code: emulator.latestCode('bob@example.com')?.code,
    });
    const given = await callInProcess(
      ['flow', '--email', 'bob@example.com', '--code', '000000', '--json'],
      url,
    );
    expect(JSON.parse(given.stdout.trim().split('\n')[2] as string)).toMatchObject({
      operation: 'code',
      source: 'flag',
      code: '000000',
    });
  });

  it('reads the code from a dev API that needs the admin token when given --admin-token', async () => {
    const { url } = await emulatorServer({}, { adminToken: 'admin-secret-99' });
    const result = await call(
      ['flow', '--email', 'carol@example.com', '--admin-token', 'admin-secret-99'],
      url,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"verified": true');
  });

  it('says the dev API needs --admin-token instead of silently asking for the code', async () => {
    const { url, emulator } = await emulatorServer({}, { adminToken: 'admin-secret-99' });
    const uas = spawnUas(['call', 'flow', '--email', 'carol@example.com', '--url', url]);
    await uas.waitFor(/\[3\/4\] code/);
    const code = emulator.latestCode('carol@example.com')?.code as string;
    uas.child.stdin?.write(`${code}\n`);
    expect(await uas.exited).toBe(0);
    expect(uas.stderr()).toContain(
      `uas: cannot read the code from ${url}: the dev API needs an admin token: pass --admin-token or set UAS_ADMIN_TOKEN; enter it at the prompt, or give it with --code`,
    );
    expect(uas.stderr()).not.toContain('adminToken');
  });

  it('asks for the code at the prompt when the target is not a uas emulator', async () => {
    const { url, emulator } = await emulatorServer({}, { enabled: false });
    const uas = spawnUas(['call', 'flow', '--email', 'bob@example.com', '--url', url]);
    await uas.waitFor(/\[3\/4\] code/);
    const code = emulator.latestCode('bob@example.com')?.code as string;
    uas.child.stdin?.write(`${code}\n`);
    expect(await uas.exited).toBe(0);
    expect(uas.stderr()).toContain('code sent to bob@example.com; enter it:');
    expect(uas.stderr()).not.toContain('enter it: \n');
    expect(uas.stdout()).toContain('"verified": true');
  });

  it('says on a line of its own that no code was entered when the input ends at the prompt', async () => {
    const { url } = await emulatorServer({}, { enabled: false });
    const uas = spawnUas(['call', 'flow', '--email', 'bob@example.com', '--url', url]);
    await uas.waitFor(/\[3\/4\] code/);
    await expect.poll(() => uas.stderr()).toContain('enter it: ');
    uas.child.stdin?.end();
    expect(await uas.exited).toBe(2);
    const lines = uas.stderr().split('\n');
    expect(lines).toContain('code sent to bob@example.com; enter it: ');
    expect(lines).toContain('uas: no code was entered; pass it with --code');
  });

  it('retries a 429 after Retry-After and succeeds when the bucket has refilled', async () => {
    const { url } = await emulatorServer({
      limits: { ...DEMO_CONFIG.limits, caller: { burst: 1, rate: '1/s' } },
    });
    // The client waits on the server's manual clock: a wait moves it, and the bucket refills.
    const time = createTestClock(clock.now(), (ms) => clock.advance(ms));
    const args = ['exists', '--email', 'alice@example.com', '--caller-id', 'r'];
    await callInProcess(args, url, time);
    const result = await callInProcess(args, url, time);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('(2 attempts)');
    expect(result.stderr).toMatch(
      /429 on exists: caller bucket: 0 of 1 left, next token in 1 s \[caller:demo:r\]; attempt 2 of 3 in 1\.\d s/,
    );
    expect(time.waits).toHaveLength(1);
  });

  it('exits 3 after exactly the configured attempts when every attempt is rate limited', async () => {
    const { url, emulator } = await emulatorServer({ behavior: { chaos: 1 } });
    const result = await callInProcess(
      [
        'exists',
        '--email',
        'alice@example.com',
        '--caller-id',
        'p',
        '--max-attempts',
        '2',
        '--json',
      ],
      url,
    );
    expect(result.code).toBe(3);
    expect(
      JSON.parse(result.stdout).attempts.map((attempt: { status: number }) => attempt.status),
    ).toEqual([429, 429]);
    expect(emulator.journal().length).toBe(2);
    expect(result.stderr).toContain('uas: still rate limited after 2 attempts (caller:demo:p).');
    // chaos 1 injected every 429 into a full bucket: no caller_id is to blame.
    expect(result.stderr).toContain(
      'uas: the last 429 was injected by the emulator (--chaos, or a fault scripted with POST /__uas/faults), not caused by an empty bucket; it says nothing about your caller_id.',
    );
    expect(result.stderr).not.toContain('caller_id unique to each end-user');
    expect(result.stderr).not.toContain('uas: uas:');
  });

  it('points at the caller_id when the 429s came from a bucket that stayed empty', async () => {
    const { url } = await emulatorServer({
      limits: { ...DEMO_CONFIG.limits, caller: { burst: 1, rate: '1/h' } },
    });
    const args = ['exists', '--email', 'alice@example.com', '--caller-id', 'shared'];
    await callInProcess(args, url);
    const result = await callInProcess([...args, '--max-wait', '2h'], url);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      'uas: still rate limited after 3 attempts (caller:demo:shared).',
    );
    expect(result.stderr).toContain(
      'uas: persistent 429s usually mean a missing or shared caller_id (one bucket for many users), or abuse; send a caller_id unique to each end-user.',
    );
    expect(result.stderr).not.toContain('injected');
    expect(result.stderr).not.toContain('uas: uas:');
  });

  it('does not call a single 429 of --no-retry persistent, but says it was injected', async () => {
    const { url } = await emulatorServer({ behavior: { chaos: 1 } });
    const result = await callInProcess(['exists', '--email', 'a@b.co', '--no-retry'], url);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe(
      'uas: still rate limited after 1 attempt (client:demo).\n' +
        'uas: the last 429 was injected by the emulator (--chaos, or a fault scripted with POST /__uas/faults), not caused by an empty bucket; it says nothing about your caller_id.\n',
    );
  });

  it('says a single 429 of --max-attempts 1 was injected', async () => {
    const { url } = await emulatorServer({ behavior: { chaos: 1 } });
    const args = ['exists', '--email', 'a@b.co', '--caller-id', 'm', '--max-attempts', '1'];
    const result = await callInProcess(args, url);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('\nuas: the last 429 was injected by the emulator');
    expect(result.stderr).not.toContain('persistent');
  });

  it('says nothing of persistence for a single 429 of an empty bucket', async () => {
    const { url } = await emulatorServer({
      limits: { ...DEMO_CONFIG.limits, caller: { burst: 1, rate: '1/h' } },
    });
    const args = ['exists', '--email', 'a@b.co', '--caller-id', 'e'];
    await callInProcess(args, url);
    const result = await callInProcess([...args, '--no-retry'], url);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe('uas: still rate limited after 1 attempt (caller:demo:e).\n');
  });

  it('gives up at once when Retry-After is above --max-wait', async () => {
    const { url } = await emulatorServer({
      limits: { ...DEMO_CONFIG.limits, caller: { burst: 1, rate: '1/m' } },
    });
    await callInProcess(['exists', '--email', 'alice@example.com', '--caller-id', 'w'], url);
    const result = await callInProcess(
      ['exists', '--email', 'alice@example.com', '--caller-id', 'w', '--max-wait', '5s'],
      url,
    );
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('Retry-After: 60 (in 60 s)');
    expect(result.stderr).toContain(
      'uas: rate limited (caller:demo:w); Retry-After: 60 (in 60 s) is above --max-wait 5s; not retrying',
    );
  });

  it('exits 4 when the target cannot be reached', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    const result = await call(
      ['start', '--email', 'alice@example.com', '--no-retry'],
      `http://127.0.0.1:${port}`,
    );
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`uas: cannot reach http://127.0.0.1:${port}: ECONNREFUSED`);
  });

  it('does not call a server that answered malformed HTTP unreachable, and names the path of --url', async () => {
    const server = await hostile((socket) =>
      socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}'),
    );
    const result = await callInProcess(
      ['exists', '--email', 'a@b.co', '--no-retry'],
      `${server.url}/prefix/`,
    );
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(
      new RegExp(
        // Node 20's fetch stops at the parser; Node 24's at the length that does not match.
        `^uas: ${server.url}/prefix answered with malformed HTTP: (HPE_UNEXPECTED_CONTENT_LENGTH|UND_ERR_RES_CONTENT_LENGTH_MISMATCH): `,
      ),
    );
    expect(result.stderr).not.toContain('cannot reach');
  });

  it('refuses a --token-file larger than any token, reading no more of it, and sends nothing', async () => {
    // /dev/zero ended as "Invalid string length"; a large file was sent whole in the header.
    const server = await hostile((socket) => answer(socket, 200, [], '{}'));
    const file = join(tempDir('uas-token-'), 'token');
    writeFileSync(file, 'x'.repeat(65_537));
    const result = await callInProcess(
      ['exists', '--email', 'a@b.co', '--token-file', file],
      server.url,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `uas: --token-file ${file} is larger than 64 KiB, more than any token; give the file that holds the token alone\n`,
    );
    writeFileSync(file, `${'x'.repeat(65_535)}\n`);
    const whole = await callInProcess(
      ['exists', '--email', 'a@b.co', '--token-file', file],
      server.url,
    );
    expect(whole.stderr).not.toContain('--token-file');
    expect(server.requests).toHaveLength(1);
  });

  it('uses --token-file and refuses a missing token for a remote target', async () => {
    const { url } = await emulatorServer();
    const file = join(tempDir('uas-token-'), 'token');
    writeFileSync(file, 'uas-other-token\n');
    const other = await call(['exists', '--email', 'alice@example.com', '--token-file', file], url);
    expect(other.stdout).toContain('[client:other]');
    const remote = await runUas(
      ['call', 'exists', '--email', 'a@b.co', '--url', 'https://uas.example.com'],
      { UAS_TOKEN: '' },
    );
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('no access token for https://uas.example.com');
  });

  it('refuses a token no Authorization header can carry, without printing it', async () => {
    const file = join(tempDir('uas-token-'), 'token');
    writeFileSync(file, 'secret-one\nsecret-two\n');
    const cases: string[][] = [
      ['--token-file', file],
      ['--token', 'secret-t\u00f6ken'],
      ['--token', 'secret\u0007token'],
    ];
    for (const flags of cases) {
      const result = await callInProcess([
        'exists',
        '--email',
        'a@b.co',
        '--url',
        'http://127.0.0.1:9',
        ...flags,
      ]);
      expect(result.code, flags.join(' ')).toBe(2);
      expect(result.stderr, flags.join(' ')).toMatch(
        /^uas: the token .* cannot go in an Authorization header: .*\n$/,
      );
      expect(result.stderr).not.toContain('secret');
    }
  });

  it('rejects bad flags with one line and exit code 2', async () => {
    const cases: Array<[string[], string]> = [
      [['exists'], 'give exactly one of --email or --phone'],
      [['exists', '--email', 'a@b.co', '--url', 'not a url'], 'invalid --url'],
      [['exists', '--email', 'a@b.co', '--max-wait', 'forever'], 'invalid --max-wait'],
      [['exists', '--email', 'a@b.co', '--max-attempts', 'three'], "argument 'three' is invalid"],
      [
        ['exists', '--email', 'a@b.co', '--forwarded-for', '1.2.3.4', '--trusted-proxies', 'nope'],
        'invalid --trusted-proxies',
      ],
      [
        [
          'exists',
          '--email',
          'a@b.co',
          '--forwarded-for',
          'junk, 10.0.0.1',
          '--trusted-proxies',
          '1',
        ],
        'cannot derive a caller_id',
      ],
      [
        ['exists', '--email', 'a@b.co', '--caller-id', 'x', '--forwarded-for', '1.2.3.4'],
        'not both',
      ],
      [
        ['exists', '--email', 'a@b.co', '--token', 'Bearer uas-demo-token'],
        'the token of --token (or UAS_TOKEN) starts with "Bearer ": give the token alone',
      ],
      [
        ['exists', '--email', 'a@b.co', '--token', 'Basic eA=='],
        'the token of --token (or UAS_TOKEN) holds a space, which no bearer token does',
      ],
      [
        ['exists', '--email', 'a@b.co', '--caller-id', 'x', '--trusted-proxies', '1'],
        '--trusted-proxies goes with --forwarded-for <list>',
      ],
      [['start'], "required option '--email <email>' not specified"],
      [
        [
          'verify',
          '--email',
          'a@b.co',
          '--code',
          '1',
          '--token',
          'x',
          '--url',
          'http://127.0.0.1:9',
        ],
        '--merchant is required',
      ],
      [['exists', '--bogus'], "unknown option '--bogus'"],
      [
        ['exists', '--email', 'a@b.co', '--token-file', '/nonexistent/token'],
        'cannot read --token-file',
      ],
    ];
    for (const [args, message] of cases) {
      const result = await callInProcess(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toContain(message);
    }
    // The real binary: one line, no stack, for an error of uas and one of commander.
    for (const [args, message] of [cases[0], cases[cases.length - 2]] as Array<
      [string[], string]
    >) {
      const result = await runUas(['call', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toEqual([
        expect.stringContaining(message),
      ]);
    }
  });
});

describe('uas call --merchant', () => {
  it('refuses a merchant the URL would drop as a path segment, sending nothing', async () => {
    // "/v1/merchants/../users/..." is sent as "/v1/users/...": another route than the one shown.
    const server = await hostile((socket) => answer(socket, 404, [], ''));
    for (const merchant of ['', '.', '..']) {
      for (const operation of [['start'], ['verify', '--code', '123456'], ['flow']]) {
        const args = [...operation, '--email', 'a@b.co', '--merchant', merchant];
        const result = await callInProcess(args, server.url);
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stderr).toBe(
          `uas: invalid --merchant: expected a merchant id; got ${JSON.stringify(merchant)}, which a URL cannot carry as a path segment\n`,
        );
      }
    }
    expect(server.requests).toEqual([]);
  });
});

describe('uas call against a hostile server', () => {
  const JSON_TYPE: [string, string] = ['Content-Type', 'application/json'];
  /** Bytes 0x80-0xff in a header arrive as latin1: 0x9b becomes U+009B, CSI to some terminals. */
  const c1 = (text: string) =>
    Buffer.concat([Buffer.from(text), Buffer.from([0x9b]), Buffer.from('2J')]);
  const hostileText = '\x1b]0;pwned\x07\x1b[2J\x1b[Hok\r✔ 200 fake line\u009b31m\x7f';

  it('escapes control characters in the body, the headers and the bucket, --verbose included', async () => {
    const server = await hostile((socket) =>
      answer(
        socket,
        200,
        [
          ['Content-Type', 'text/plain'],
          ['UAS-Bucket', c1('caller:demo:')],
          ['RateLimit', '"caller";r=1;t=1'],
          ['X-Title', c1('title')],
        ],
        hostileText,
      ),
    );
    const result = await call(
      ['exists', '--email', 'a@b.co', '--verbose', '--no-retry'],
      server.url,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(CONTROL);
    expect(result.stderr).not.toMatch(CONTROL);
    expect(result.stdout).toContain(
      '\\x1b]0;pwned\\x07\\x1b[2J\\x1b[Hok\\r✔ 200 fake line\\x9b31m\\x7f',
    );
    expect(result.stdout).toContain('< x-title: title\\x9b2J');
    expect(result.stdout).toContain('[caller:demo:\\x9b2J]');
    expect(result.stdout).toContain('not an answer of the API: the body is not JSON');
  });

  it('escapes problem details, Retry-After and the bucket of a 429 and of its retry notices', async () => {
    const problem = JSON.stringify({
      type: 'about:blank',
      title: 'Slow down\u009b2J',
      status: 429,
      detail: 'wait\x1b[2J\rfake',
    });
    const server = await hostile((socket) =>
      answer(
        socket,
        429,
        [
          ['Content-Type', 'application/problem+json'],
          ['Retry-After', c1('soon')],
          ['UAS-Bucket', c1('caller:demo:')],
          ['RateLimit', '"caller";r=0;t=1'],
        ],
        problem,
      ),
    );
    const result = await callInProcess(['start', '--email', 'a@b.co'], server.url);
    expect(result.code).toBe(3);
    expect(server.requests).toHaveLength(3);
    expect(result.stdout).not.toMatch(CONTROL);
    expect(result.stderr).not.toMatch(CONTROL);
    expect(result.stdout).toContain('Retry-After: soon\\x9b2J (not understood; ignored)');
    expect(result.stdout).toContain('"title": "Slow down\\x9b2J"');
    expect(result.stdout).toContain('"detail": "wait\\u001b[2J\\rfake"');
    expect(result.stderr).toContain(
      '429 on start: caller bucket: 0 left, next token in 1 s [caller:demo:\\x9b2J]',
    );
    expect(result.stderr).toContain('still rate limited after 3 attempts (caller:demo:\\x9b2J)');
  });

  it('prints --json with every key in snake_case and C1 controls escaped, parsing back to what was sent', async () => {
    const server = await hostile((socket) =>
      answer(
        socket,
        503,
        [
          JSON_TYPE,
          ['Retry-After', '2'],
          ['UAS-Bucket', c1('client:')],
          ['RateLimit', '"client";r=0;t=2'],
        ],
        JSON.stringify({ note: hostileText }),
      ),
    );
    const result = await callInProcess(
      ['exists', '--email', 'a@b.co', '--json', '--max-attempts', '2'],
      server.url,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(CONTROL);
    const printed = JSON.parse(result.stdout);
    expect(printed.body).toEqual({ note: hostileText });
    expect(printed.rate_limit.bucket).toBe('client:\u009b2J');
    expect(printed.retry_after).toEqual({ value: '2', form: 'seconds', delay_ms: 2000 });
    const keys = (value: unknown): string[] =>
      value === null || typeof value !== 'object'
        ? []
        : Array.isArray(value)
          ? value.flatMap(keys)
          : Object.entries(value).flatMap(([key, inner]) => [
              key,
              ...(key === 'body' ? [] : keys(inner)),
            ]);
    const all = keys(printed);
    expect(all).toContain('reset_seconds');
    expect(all).toContain('wait_ms');
    expect(all.filter((key) => !/^[a-z]+(_[a-z]+)*$/.test(key))).toEqual([]);
  });

  it('prints --json for a body nested too deep to re-serialise, giving it as text', async () => {
    // JSON.parse takes nesting that JSON.stringify then overflows the stack on.
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const server = await hostile((socket) =>
      answer(socket, 429, [JSON_TYPE, ['Retry-After', '0']], deep),
    );
    const result = await callInProcess(
      ['exists', '--email', 'a@b.co', '--json', '--no-retry'],
      server.url,
    );
    expect(result.code).toBe(3);
    const printed = JSON.parse(result.stdout);
    expect(printed.outcome).toBe('rate-limited');
    expect(printed.body).toBe(deep);
  });

  it('takes a --timeout of a fraction of a millisecond as the next whole one, which a timer can hold', async () => {
    const server = await hostile(() => {}); // never answers
    const result = await callInProcess(
      ['exists', '--email', 'a@b.co', '--timeout', '1.5ms', '--no-retry'],
      server.url,
    );
    expect(result.code).toBe(4);
    expect(result.stdout).toContain('timed out after 2 ms');
  });

  it('exits 4 on a body cut short, saying the server was reached but its answer was not whole', async () => {
    const server = await hostile((socket) =>
      socket.end(
        Buffer.concat([
          head(200, [JSON_TYPE, ['Content-Length', '100']]),
          Buffer.from('{"sent":true'),
        ]),
      ),
    );
    const result = await call(['start', '--email', 'alice@example.com'], server.url);
    expect(result.code).toBe(4);
    expect(result.stdout).toContain('✖ network error  POST /v1/merchants/');
    expect(result.stderr).toContain(
      `uas: no whole answer from ${server.url}: the answer was cut short after 12 of 100 bytes of body`,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('does not follow a redirect: exits 1 naming the Location, and the other host gets nothing', async () => {
    const elsewhere = await hostile((socket) => answer(socket, 200, [JSON_TYPE], '{"sent":true}'));
    const server = await hostile((socket) =>
      answer(socket, 307, [['Location', c1(`${elsewhere.url}/steal`)]]),
    );
    const result = await call(['start', '--email', 'alice@example.com'], server.url);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('✖ 307  POST /v1/merchants/');
    expect(result.stdout).toContain(
      `redirect to ${elsewhere.url}/steal\\x9b2J: not followed (uas call never follows redirects)`,
    );
    expect(result.stderr).toContain('uas call never follows redirects: check --url');
    expect(elsewhere.requests).toEqual([]);
  });

  it('says, on a 404, that a base URL ending in /v1 sent the request to /v1/v1/...', async () => {
    const server = await hostile((socket) =>
      answer(socket, 404, [['Content-Type', 'application/problem+json']], '{"status":404}'),
    );
    const result = await callInProcess(['exists', '--email', 'a@b.co'], `${server.url}/v1/`);
    expect(result.code).toBe(1);
    expect(server.requests[0]?.path).toMatch(/^\/v1\/v1\/users\/exists\?/);
    expect(result.stderr).toBe(
      `uas: the base URL ends in /v1, which uas adds itself (the request went to /v1/v1/...): give ${server.url}\n`,
    );
    const plain = await callInProcess(['exists', '--email', 'a@b.co'], server.url);
    expect(plain.stderr).toBe('');
  });

  it('does not tell to raise --max-response for an empty body, which no limit cut', async () => {
    for (const status of [200, 204]) {
      const server = await hostile((socket) => answer(socket, status, [JSON_TYPE], ''));
      const result = await callInProcess(['exists', '--email', 'a@b.co'], server.url);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `uas: ${server.url} answered ${status} with something that is not an answer of the API: the body is not JSON, so not an answer of exists\n`,
      );
    }
  });

  it('exits 1 on a body over --max-response, and refuses a Content-Length over it unread', async () => {
    const endless = await hostile((socket) =>
      stream(socket, head(200, [JSON_TYPE]), endless.written),
    );
    const capped = await callInProcess(
      ['exists', '--email', 'a@b.co', '--max-response', '64kb'],
      endless.url,
    );
    expect(capped.code).toBe(1);
    expect(capped.stderr).toContain(
      "answered 200 with something that is not an answer of the API: the answer's body passed the limit of 65536 bytes; not read further (raise the limit with --max-response)",
    );
    expect(endless.requests).toHaveLength(1);

    const huge = await hostile((socket) =>
      stream(
        socket,
        head(200, [JSON_TYPE, ['Content-Length', String(3 * 1024 ** 3)]]),
        huge.written,
      ),
    );
    const refused = await callInProcess(['exists', '--email', 'a@b.co', '--json'], huge.url);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({
      outcome: 'invalid-answer',
      status: 200,
      error:
        'the answer announces 3221225472 bytes (Content-Length), above the limit of 1048576; not read',
      body: null,
    });
  });

  it('prints a Retry-After date as sent and as understood', async () => {
    const date = new Date(TEST_NOW + 12_000).toUTCString();
    const server = await hostile((socket) => answer(socket, 429, [['Retry-After', date]]));
    const result = await callInProcess(
      ['exists', '--email', 'a@b.co', '--max-wait', '5s'],
      server.url,
      createTestClock(TEST_NOW),
    );
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('Retry-After: Sun, 22 Nov 2026 08:00:12 GMT (in 12 s)');
    expect(result.stderr).toContain(
      'Retry-After: Sun, 22 Nov 2026 08:00:12 GMT (in 12 s) is above --max-wait 5s; not retrying',
    );
    expect(result.stderr).not.toContain('GMT s');
  });

  it('neither prints nor sends a "code" from a fake dev API that is not digits', async () => {
    const server = await hostile((socket, request) => {
      if (request.path.startsWith('/__uas/health'))
        answer(socket, 200, [JSON_TYPE], '{"status":"ok"}');
      else if (request.path.startsWith('/__uas/codes'))
        answer(socket, 200, [JSON_TYPE], JSON.stringify({ code: '\x1b]0;pwned\x07' }));
      else if (request.path.startsWith('/v1/users/exists'))
        answer(socket, 200, [JSON_TYPE], '{"exists":true,"token_count":1}');
      else answer(socket, 200, [JSON_TYPE], '{"sent":true}');
    });
    const result = await callInProcess(['flow', '--email', 'alice@example.com'], server.url);
    expect(result.code).toBe(2);
    expect(result.stdout).not.toMatch(CONTROL);
    expect(result.stdout).not.toContain('pwned');
    expect(result.stderr).toContain(
      `uas: cannot read the code from ${server.url}: its dev API gave a code that is not digits (not shown, not sent); enter it at the prompt, or give it with --code`,
    );
    expect(result.stderr).not.toContain('pwned');
    expect(server.requests.map((request) => request.path)).not.toContainEqual(
      expect.stringContaining('/verify'),
    );
  });

  it('rejects a --max-response that is not a size with exit code 2', async () => {
    for (const size of ['0', 'lots', '12abc', '1e9', '-5']) {
      const result = await callInProcess(
        ['exists', '--email', 'a@b.co', '--max-response', size],
        'http://127.0.0.1:9',
      );
      expect(result.code, size).toBe(2);
      expect(result.stderr, size).toContain('invalid --max-response');
    }
  });
});

describe('uas code', () => {
  it('uas code shows no "code" that is not digits, and refuses what no code could be issued for', async () => {
    const server = await hostile((socket) =>
      answer(
        socket,
        200,
        [['Content-Type', 'application/json']],
        JSON.stringify({ code: '12\x1b]0;pwned\x07' }),
      ),
    );
    const fake = await runCli(['code', 'alice@example.com', '--url', server.url]);
    expect(fake).toMatchObject({ code: 1, stdout: '' });
    expect(fake.stderr).toBe(
      `uas: the dev API of ${server.url} gave a code that is not digits (not shown)\n`,
    );
    const email = await runCli(['code', 'not an email', '--url', server.url]);
    expect(email.code).toBe(2);
    expect(email.stderr).toMatch(/^uas: invalid <email>: expected an e-mail address/);
    const merchant = await runCli([
      'code',
      'a@example.com',
      '--merchant',
      'shop-1',
      '--url',
      server.url,
    ]);
    expect(merchant.code).toBe(2);
    expect(merchant.stderr).toMatch(
      /^uas: invalid --merchant: expected a merchant id in UUID form/,
    );
    // Neither of the last two asked the server anything.
    expect(server.requests).toHaveLength(1);
  });

  it('prints with --json only the fields of a code record, whatever else a fake dev API nests in it', async () => {
    // Nested deeper than JSON.stringify can recurse, as JSON.parse takes it.
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const record = {
      merchant_id: DEMO_MERCHANT,
      email: 'alice@example.com',
      code: '123456',
      issued_at: '2026-01-01T00:00:00.000Z',
      expires_at: '2026-01-01T00:10:00.000Z',
      attempts_left: 5,
      used: false,
    };
    const body = (field: string) => `${JSON.stringify(record).slice(0, -1)},"${field}":${deep}}`;
    const extra = await hostile((socket) =>
      answer(socket, 200, [['Content-Type', 'application/json']], body('extra')),
    );
    const printed = await runCli(['code', 'alice@example.com', '--json', '--url', extra.url]);
    expect(printed).toEqual({ code: 0, stdout: `${JSON.stringify(record)}\n`, stderr: '' });
    const nested = await hostile((socket) =>
      answer(socket, 200, [['Content-Type', 'application/json']], body('used')),
    );
    expect(await runCli(['code', 'alice@example.com', '--json', '--url', nested.url])).toEqual({
      code: 1,
      stdout: '',
      stderr: `uas: the dev API of ${nested.url} gave a code record that is not one (not shown)\n`,
    });
  });

  it('prints the latest code, or its record with --json, and says when there is none', async () => {
    const { url, emulator } = await emulatorServer();
    const none = await runCli(['code', 'alice@example.com', '--url', url]);
    expect(none).toMatchObject({ code: 1, stdout: '' });
    expect(none.stderr).toBe('uas: no code was issued for alice@example.com; call start first\n');
    emulator.handle({
      method: 'POST',
      url: `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`,
      headers: { authorization: 'Bearer uas-demo-token', 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.com' }),
    });
    const issued = emulator.latestCode('alice@example.com')?.code as string;
    expect(await runCli(['code', 'alice@example.com', '--url', url])).toEqual({
      code: 0,
      stdout: `${issued}\n`,
      stderr: '',
    });
    const json = await runCli(['code', 'alice@example.com', '--url', url, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ code: issued, merchant_id: DEMO_MERCHANT });
  });

  it('is in docs/code.md as in its --help: the same flags, exit codes, and --json keys', async () => {
    const section = readFileSync(new URL('../../docs/code.md', import.meta.url), 'utf8');
    expect(section.split('\n')[0]).toBe('# `uas code <email>`');
    const help = (await runCli(['code', '--help'])).stdout;
    const helpFlags = [...help.matchAll(/^ {2}(--[\w-]+)/gm)].map(([, flag]) => flag);
    expect(helpFlags.filter((flag) => flag !== '--help').sort()).toEqual(
      [...section.matchAll(/^\| `(--[\w-]+)/gm)].map(([, flag]) => flag).sort(),
    );
    const helpCodes = [
      ...(/Exit codes: ([\s\S]*)$/.exec(help)?.[1] ?? '').matchAll(/(?:^|, |\n)(\d) /g),
    ];
    expect(helpCodes.map(([, code]) => code)).toEqual(
      [...section.matchAll(/^\| (\d) +\|/gm)].map(([, code]) => code),
    );
    const { url, emulator } = await emulatorServer();
    emulator.handle({
      method: 'POST',
      url: `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`,
      headers: { authorization: 'Bearer uas-demo-token', 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.com' }),
    });
    const json = JSON.parse(
      (await runCli(['code', 'alice@example.com', '--url', url, '--json'])).stdout,
    );
    const example = JSON.parse(/```json\n([\s\S]*?)```/.exec(section)?.[1] ?? 'null');
    expect(Object.keys(json).sort()).toEqual(Object.keys(example).sort());
  });

  it('exits 2 saying the admin token is missing, and 4 when the emulator is unreachable', async () => {
    const { url } = await emulatorServer({}, { adminToken: 'admin-secret-99' });
    const guarded = await runCli(['code', 'alice@example.com', '--url', url]);
    expect(guarded.code).toBe(2);
    expect(guarded.stderr).toBe(
      `uas: cannot read the code from ${url}: the dev API needs an admin token: pass --admin-token or set UAS_ADMIN_TOKEN\n`,
    );
    const wrong = await runCli(['code', 'a@b.co', '--url', url, '--admin-token', 'nope']);
    expect(wrong.stderr).toContain('the dev API refused the admin token');
    await running!.close(100);
    running = undefined;
    const gone = await runCli(['code', 'a@b.co', '--url', url]);
    expect(gone.code).toBe(4);
    expect(gone.stderr).toMatch(
      /^uas: GET \/__uas\/codes\/a%40b\.co: cannot reach http:\/\/127\.0\.0\.1:\d+: /,
    );
  });
});
