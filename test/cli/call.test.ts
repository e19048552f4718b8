import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type EmulatorHttpServer } from '../../src/adapters/http/http-server.js';
import { createManualClock } from '../../src/core/time/clock.js';
import type { Emulator } from '../../src/core/emulator.js';
import { createSeededRandom } from '../../src/core/time/random.js';
import { DEMO_CONFIG, DEMO_MERCHANT } from '../../src/demo-config.js';
import { createEmulator } from '../../src/emulator.js';
import { runUas, spawnUas } from '../helpers/spawn-uas.js';

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

afterEach(async () => {
  await running?.close(100);
  running = undefined;
});

const call = (args: string[], url: string) => runUas(['call', ...args, '--url', url]);

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
    expect(result.stdout).toContain('> authorization: Bearer uas-…(14 chars)');
    expect(result.stdout).not.toContain('uas-demo-token');
    expect(result.stdout).toContain('< ratelimit-policy: "client";q=20;w=2');
    expect(result.stdout).toContain('< uas-bucket: client:demo');
  });

  it('prints one JSON object with --json', async () => {
    const { url } = await emulatorServer();
    const result = await call(['exists', '--phone', '+14155550101', '--json'], url);
    expect(JSON.parse(result.stdout)).toMatchObject({
      operation: 'exists',
      outcome: 'success',
      status: 200,
      body: { exists: true },
      rate_limit: { bucket: 'client:demo', remaining: 19 },
      attempts: [{ attempt: 1, status: 200, wait_ms: 0 }],
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

  it('reads the code from a dev API that needs the admin token when given --admin-token', async () => {
    const { url } = await emulatorServer({}, { adminToken: 'admin-secret-99' });
    const result = await call(
      ['flow', '--email', 'carol@example.com', '--admin-token', 'admin-secret-99'],
      url,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"verified": true');
  });

  it('asks for the code at the prompt when the target is not a uas emulator', async () => {
    const { url, emulator } = await emulatorServer({}, { enabled: false });
    const uas = spawnUas(['call', 'flow', '--email', 'bob@example.com', '--url', url]);
    await uas.waitFor(/\[3\/4\] code/);
    const code = emulator.latestCode('bob@example.com')?.code as string;
    uas.child.stdin?.write(`${code}\n`);
    expect(await uas.exited).toBe(0);
    expect(uas.stderr()).toContain('code sent to bob@example.com; enter it:');
    expect(uas.stdout()).toContain('"verified": true');
  });

  it('retries a 429 after Retry-After and succeeds when the bucket has refilled', async () => {
    const { url, emulator } = await emulatorServer({
      limits: { ...DEMO_CONFIG.limits, caller: { burst: 1, rate: '1/s' } },
    });
    emulator.subscribe((event) => {
      // The server runs on a manual clock: a second passes on it when the 429 is sent.
      if (event.type === 'request' && event.request.status === 429) clock.advance(1000);
    });
    await call(['exists', '--email', 'alice@example.com', '--caller-id', 'r'], url);
    const result = await call(['exists', '--email', 'alice@example.com', '--caller-id', 'r'], url);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('(2 attempts)');
    expect(result.stderr).toMatch(
      /429 on exists: caller bucket: 0 of 1 left, next token in 1 s \[caller:demo:r\]; attempt 2 of 3 in 1\.\d s/,
    );
  });

  it('exits 3 after exactly the configured attempts when every attempt is rate limited', async () => {
    const { url, emulator } = await emulatorServer({ behavior: { chaos: 1 } });
    const result = await call(
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
    expect(result.stderr).toContain('missing or shared caller_id');
  });

  it('gives up at once when Retry-After is above --max-wait', async () => {
    const { url } = await emulatorServer({
      limits: { ...DEMO_CONFIG.limits, caller: { burst: 1, rate: '1/m' } },
    });
    await call(['exists', '--email', 'alice@example.com', '--caller-id', 'w'], url);
    const result = await call(
      ['exists', '--email', 'alice@example.com', '--caller-id', 'w', '--max-wait', '5s'],
      url,
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('Retry-After 60 s is above --max-wait 5s, not retrying');
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

  it('uses --token-file and refuses a missing token for a remote target', async () => {
    const { url } = await emulatorServer();
    const file = join(mkdtempSync(join(tmpdir(), 'uas-token-')), 'token');
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
      const result = await runUas(['call', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toContain(message);
      expect(result.stderr).not.toContain('    at ');
    }
  });
});
