import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type EmulatorHttpServer } from '../../src/adapters/http/http-server.js';
import { createManualClock } from '../../src/core/time/clock.js';
import { createEmulator } from '../../src/emulator.js';
import { answer, startHostileServer, type HostileServer } from '../helpers/hostile-server.js';
import { DEMO_CONFIG } from '../../src/demo-config.js';
import { VERSION } from '../../src/version.js';
import { runCli } from '../helpers/run-cli.js';
import { runUas } from '../helpers/spawn-uas.js';

// Every command, with unknown flags, missing values, bad numbers, bad URLs and unreadable files:
// one line on stderr, exit code 2, never a stack trace.
const CASES: Array<[string, string[]]> = [
  ['unknown command', ['launch']],
  ['serve: unknown flag', ['serve', '--colour']],
  ['serve: missing value', ['serve', '--port']],
  ['serve: bad number', ['serve', '--port', '99999']],
  ['serve: bad choice', ['serve', '--engine', 'turbo']],
  ['serve: bad chaos', ['serve', '--chaos', '2']],
  ['serve: bad chaos Retry-After', ['serve', '--port', '0', '--chaos-retry-after', 'soon']],
  ['serve: bad latency', ['serve', '--port', '0', '--latency', 'slow']],
  ['serve: latency past the bound', ['serve', '--port', '0', '--latency', '30d']],
  ['serve: bad otp', ['serve', '--port', '0', '--otp', 'fixed:12']],
  ['serve: code lifetime past the bound', ['serve', '--port', '0', '--otp-ttl', '300000y']],
  [
    'serve: huge fixed Retry-After',
    ['serve', '--port', '0', '--retry-after', 'fixed:100000000000000000000000'],
  ],
  [
    'serve: record buffer past the bound',
    ['serve', '--port', '0', '--record', '/dev/null', '--record-buffer', '1gb'],
  ],
  ['serve: bad allowed host', ['serve', '--allowed-hosts', 'a b']],
  ['serve: empty admin token', ['serve', '--port', '0', '--admin-token', '']],
  ['serve: admin token with a space', ['serve', '--port', '0', '--admin-token', 'my secret']],
  ['serve: unreadable config', ['serve', '--config', '/nonexistent/uas.json']],
  ['serve: directory as config', ['serve', '--config', '/']],
  ['serve: endless device as config', ['serve', '--config', '/dev/zero']],
  ['serve: handlers without msw', ['serve', '--handlers', 'x.js']],
  ['call: unknown subcommand', ['call', 'delete']],
  ['call exists: unknown flag', ['call', 'exists', '--mail', 'a@b.co']],
  ['call exists: missing value', ['call', 'exists', '--email']],
  ['call exists: bad URL', ['call', 'exists', '--email', 'a@b.co', '--url', '://nope']],
  ['call exists: bad scheme', ['call', 'exists', '--email', 'a@b.co', '--url', 'ftp://127.0.0.1']],
  ['call start: bad number', ['call', 'start', '--email', 'a@b.co', '--max-attempts', '0']],
  ['call verify: missing code', ['call', 'verify', '--email', 'a@b.co']],
  [
    'call flow: unreadable token file',
    ['call', 'flow', '--email', 'a@b.co', '--token-file', '/nonexistent'],
  ],
  ['call start: bad timeout', ['call', 'start', '--email', 'a@b.co', '--timeout', 'never']],
  ['simulate: unknown flag', ['simulate', '--bots', '3']],
  ['simulate: bad number', ['simulate', '--shoppers', 'many']],
  ['simulate: bad duration', ['simulate', '--duration', 'forever']],
  ['simulate: unreadable scenario', ['simulate', '--scenario', '/nonexistent.json']],
  ['simulate: both json and markdown', ['simulate', '--json', '--markdown']],
  ['simulate: bad target', ['simulate', '--target', 'nope']],
  ['call: timeout past a timer', ['call', 'exists', '--email', 'a@b.co', '--timeout', '25d']],
  ['call: timeout past AbortSignal', ['call', 'exists', '--email', 'a@b.co', '--timeout', '50d']],
  ['call: max-wait past a timer', ['call', 'exists', '--email', 'a@b.co', '--max-wait', '30d']],
  ['call flow: max-wait past a timer', ['call', 'flow', '--email', 'a@b.co', '--max-wait', '25d']],
  ['conform: timeout past a timer', ['conform', '--timeout', '25d']],
  ['conform: max-wait past a timer', ['conform', '--exhaust', '--max-wait', '30d']],
  ['conform: max-wait without --exhaust', ['conform', '--max-wait', '5s']],
  ['conform: admin token without --dev-api', ['conform', '--admin-token', 'abc']],
  ['conform: zero timeout', ['conform', '--timeout', '0s']],
  ['simulate: bot start past a timer', ['simulate', '--bot-start', '30d']],
  ['simulate: think time past a timer', ['simulate', '--think-time', '1s-30d']],
  ['top: unknown flag', ['top', '--interval', '1']],
  ['top: bad URL', ['top', '--url', 'not a url']],
  ['top: URL with a fragment', ['top', '--url', 'http://127.0.0.1:9/#x']],
  ['code: URL with a query', ['code', 'a@b.co', '--url', 'http://127.0.0.1:9/?x=1']],
  ['call: URL with an empty query', ['call', 'exists', '--email', 'a@b.co', '--url', 'http://h/?']],
  ['conform: URL with a query', ['conform', '--url', 'http://127.0.0.1:9/v1?x']],
  ['serve: store prefix without Redis', ['serve', '--port', '0', '--store-prefix', 'staging']],
  ['serve: store error mode without Redis', ['serve', '--port', '0', '--on-store-error', 'open']],
  ['the version flag after a command', ['call', 'start', '--email', 'a@b.co', '--version']],
  ['-v before any command', ['-v']],
  ['-V given to call', ['call', 'exists', '--email', 'a@b.co', '-V']],
  ['call without its command', ['call']],
  ['help for no such command', ['help', 'launch']],
  ['call start without --email', ['call', 'start']],
  ['code without its e-mail', ['code']],
  ['code with two e-mails', ['code', 'a@b.co', 'c@d.co']],
  ['code: bad e-mail', ['code', 'not-an-email']],
  ['conform: --junit to a folder', ['conform', '--url', 'http://127.0.0.1:1', '--junit', tmpdir()]],
  ['check: unknown flag', ['check', '--colour']],
  ['check: record to "-"', ['check', '--record', '-', '--', 'true']],
  ['check: empty record name', ['check', '--record', '', '--', 'true']],
  ['serve: record to "-"', ['serve', '--port', '0', '--record', '-']],
  // A token no header can carry: fetch would refuse it on every request, quoting it.
  [
    'check: admin token over two lines',
    ['check', '--url', 'http://127.0.0.1:9', '--admin-token', 'a\nb'],
  ],
  [
    'code: admin token with an escape',
    ['code', 'a@b.co', '--url', 'http://127.0.0.1:9', '--admin-token', 'a\u001bb'],
  ],
  [
    'top: admin token beyond ASCII',
    ['top', '--once', '--url', 'http://127.0.0.1:9', '--admin-token', 't\u00f6ken'],
  ],
  [
    'conform: admin token over two lines',
    ['conform', '--url', 'http://127.0.0.1:9', '--dev-api', '--admin-token', 'a\nb'],
  ],
  ['conform: token over two lines', ['conform', '--url', 'http://127.0.0.1:9', '--token', 'a\nb']],
  [
    'simulate: token over two lines',
    ['simulate', '--target', 'http://127.0.0.1:9', '--token', 'a\nb'],
  ],
  ['openapi: unknown flag', ['openapi', '--yml']],
  ['conform: missing value', ['conform', '--url']],
  ['top: a value to --once', ['top', '--once=yes']],
  ['simulate: unknown preset', ['simulate', '--preset', 'nope']],
  ['simulate: bad mode', ['simulate', '--modes', 'shared,everyone']],
];

/** Every flag that takes a duration, given a number without a unit, and what it is told. */
const BARE_DURATIONS: Array<[string[], string]> = [
  [
    ['call', 'exists', '--email', 'a@b.co', '--timeout', '5'],
    'invalid --timeout: give a unit, e.g. 5s or 5ms; got "5"',
  ],
  [
    ['call', 'flow', '--email', 'a@b.co', '--max-wait', '30'],
    'invalid --max-wait: give a unit, e.g. 30s or 30ms; got "30"',
  ],
  [['conform', '--timeout', '5'], 'invalid --timeout: give a unit, e.g. 5s or 5ms; got "5"'],
  [
    ['conform', '--exhaust', '--max-wait', '2.5'],
    'invalid --max-wait: give a unit, e.g. 2.5s or 2.5ms; got "2.5"',
  ],
  [
    ['serve', '--port', '0', '--latency', '100'],
    'invalid --latency: give a unit, e.g. 100s or 100ms; got "100"',
  ],
  [
    ['serve', '--port', '0', '--latency', '50-200'],
    'invalid --latency: give a unit, e.g. 50s-200s or 50ms-200ms; got "50-200"',
  ],
  [
    ['serve', '--port', '0', '--otp-ttl', '600'],
    'invalid --otp-ttl: give a unit, e.g. 600s or 600ms; got "600"',
  ],
  [
    ['openapi', '--otp-ttl', '600'],
    'invalid --otp-ttl: give a unit, e.g. 600s or 600ms; got "600"',
  ],
  [['simulate', '--duration', '60'], 'invalid --duration: give a unit, e.g. 60s or 60ms; got "60"'],
  [['simulate', '--bot-start', '5'], 'invalid --bot-start: give a unit, e.g. 5s or 5ms; got "5"'],
  [['simulate', '--bot-stop', '5'], 'invalid --bot-stop: give a unit, e.g. 5s or 5ms; got "5"'],
  [
    ['simulate', '--think-time', '2-8'],
    'invalid --think-time: give a unit, e.g. 2s-8s or 2ms-8ms; got "2-8"',
  ],
  [
    ['simulate', '--think-time', '1s-8'],
    'invalid --think-time: give a unit, e.g. 1s-8s or 1s-8ms; got "1s-8"',
  ],
  [
    ['check', '--timeout', '5', '--', 'true'],
    'invalid --timeout: give a unit, e.g. 5s or 5ms; got "5"',
  ],
];

const expectUsageError = (result: { code: number | null; stderr: string }) => {
  expect(result.code).toBe(2);
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  // Commander's own errors too: every line starts with "uas:", as every other error does.
  for (const line of lines) expect(line).toMatch(/^uas: /);
};

/** Every flag that takes a URL, given one with a password. */
const CREDENTIAL_URL = 'http://user:secretpw@127.0.0.1:9';
const WITH_CREDENTIALS: Array<[string, string[]]> = [
  ['call exists', ['call', 'exists', '--email', 'a@b.co', '--url', CREDENTIAL_URL]],
  ['call flow', ['call', 'flow', '--email', 'a@b.co', '--url', CREDENTIAL_URL]],
  ['code', ['code', 'a@b.co', '--url', CREDENTIAL_URL]],
  ['top', ['top', '--once', '--url', CREDENTIAL_URL]],
  ['simulate --target', ['simulate', '--duration', '1s', '--target', CREDENTIAL_URL]],
  ['conform', ['conform', '--url', CREDENTIAL_URL]],
  ['check --url', ['check', '--url', CREDENTIAL_URL]],
  [
    'call, a password only',
    ['call', 'exists', '--email', 'a@b.co', '--url', 'http://:secretpw@127.0.0.1:9'],
  ],
  [
    'call, unparsable',
    ['call', 'exists', '--email', 'a@b.co', '--url', 'http://user:secretpw@[::1'],
  ],
];

/** A control character, a line break among them, or a bidirectional override. */
// eslint-disable-next-line no-control-regex -- looking for control characters
const CONTROLS = /[\x00-\x1f\x7f-\x9f\u202e]/;

describe('usage errors', () => {
  it.each(WITH_CREDENTIALS)(
    '%s refuses a URL with a password, without repeating the password',
    async (_name, args) => {
      const result = await runCli(args);
      expectUsageError(result);
      expect(result.stderr).toMatch(/invalid --(url|target): /);
      expect(result.stderr).not.toContain('secretpw');
    },
  );

  it('the built binary refuses a timeout past a timer without a warning or a stack', async () => {
    for (const timeout of ['25d', '50d']) {
      const result = await runUas(['call', 'exists', '--email', 'a@b.co', '--timeout', timeout]);
      expectUsageError(result);
      expect(result.stderr).toBe(
        `uas: invalid --timeout: expected at most 2147483647 ms (about 24.8 days, the longest a timer can hold); got "${timeout}"\n`,
      );
    }
  });

  it('says that a --handlers module never finished loading, where the process ended silently with 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'uas-handlers-'));
    try {
      const file = join(dir, 'handlers.mjs');
      writeFileSync(file, 'await new Promise(() => {});\nexport const handlers = [];\n');
      const result = await runUas(['serve', '--port', '0', '--engine', 'msw', '--handlers', file]);
      expectUsageError(result);
      expect(result.stderr).toBe(
        `uas: cannot load --handlers ${file}: it never finished loading (a top-level await that never settles)\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names UAS_URL, not --url, when the URL from the environment is refused', async () => {
    const cases: Array<[string[], string]> = [
      [['call', 'exists', '--email', 'a@b.co'], ''],
      [['conform'], 'ftp://x'],
      [['code', 'a@b.co'], 'http://user:secretpw@127.0.0.1:1'],
    ];
    for (const [args, url] of cases) {
      const result = await runUas(args, { UAS_URL: url });
      expectUsageError(result);
      expect(result.stderr).toMatch(/^uas: invalid UAS_URL: /);
      expect(result.stderr).not.toContain('secretpw');
    }
    // The flag wins over the environment, and is named when it is the one refused.
    const flag = await runUas(['top', '--url', 'nope'], { UAS_URL: '' });
    expect(flag.stderr).toMatch(/^uas: invalid --url: /);
  });

  it('leaves UAS_URL alone for conform --journal, which sends nothing, as it leaves it unused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'uas-journal-'));
    try {
      const file = join(dir, 'empty.ndjson');
      writeFileSync(file, '');
      const result = await runUas(['conform', '--journal', file], { UAS_URL: 'ftp://x' });
      expectUsageError(result);
      expect(result.stderr).toMatch(/^uas: .*holds no request the real service answered/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names UAS_ADMIN_TOKEN, not --admin-token, when uas serve refuses the token from the environment', async () => {
    // A token with the newline of the file it was read from.
    const env = await runUas(['serve', '--port', '0'], { UAS_ADMIN_TOKEN: 'secret\n' });
    expectUsageError(env);
    expect(env.stderr).toBe(
      'uas: invalid UAS_ADMIN_TOKEN: expected 1 to 512 printable ASCII characters without spaces\n',
    );
    const empty = await runUas(['serve', '--port', '0'], { UAS_ADMIN_TOKEN: '' });
    expect(empty.stderr).toBe('uas: UAS_ADMIN_TOKEN is empty; give a token, or unset it\n');
    // The flag wins over the environment, and is named when it is the one refused.
    const flag = await runUas(['serve', '--port', '0', '--admin-token', 'a b'], {
      UAS_ADMIN_TOKEN: 'fine',
    });
    expect(flag.stderr).toBe(
      'uas: invalid --admin-token: expected 1 to 512 printable ASCII characters without spaces\n',
    );
  });

  it.each(CASES)('%s: one line, exit 2, no stack trace', async (_name, args) => {
    expectUsageError(await runCli(args));
  });

  it('refuses a report it could not write before any work: the command is not run, the run not made', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'uas-report-'));
    try {
      const marker = join(dir, 'ran');
      const command = [
        '--',
        process.execPath,
        '-e',
        `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`,
      ];
      for (const [flag, path, reason] of [
        ['--junit', dir, 'EISDIR: it is a directory'],
        ['--markdown', join(dir, 'none', 'report.md'), 'ENOENT: its folder does not exist'],
      ] as const) {
        const result = await runCli(['check', flag, path, ...command]);
        expectUsageError(result);
        expect(result.stderr).toBe(`uas: cannot write ${flag} ${path}: ${reason}\n`);
        expect(existsSync(marker)).toBe(false);
      }
      // No file named: an empty path (the current folder) or "-" (not stdout here).
      for (const [flag, path, said] of [
        ['--junit', '', '--junit is empty; give the file to write'],
        [
          '--markdown',
          '-',
          '--markdown - would write a file named "-", not stdout; give the path of the file to write',
        ],
      ] as const) {
        const result = await runCli(['check', flag, path, ...command]);
        expectUsageError(result);
        expect(result.stderr).toBe(`uas: ${said}\n`);
        expect(existsSync(marker)).toBe(false);
      }
      // Told before the scenario is even read.
      const simulate = await runCli(['simulate', '--preset', 'nope', '--html', dir]);
      expectUsageError(simulate);
      expect(simulate.stderr).toBe(`uas: cannot write --html ${dir}: EISDIR: it is a directory\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(BARE_DURATIONS)('refuses a duration without a unit: uas %j', async (args, message) => {
    const result = await runCli(args);
    expectUsageError(result);
    expect(result.stderr).toBe(`uas: ${message}\n`);
  });

  it('refuses a duration without a unit in a config file and a scenario file, naming the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'uas-units-'));
    const config = join(dir, 'uas.json');
    writeFileSync(
      config,
      JSON.stringify({ ...DEMO_CONFIG, otp: { ttl: 600 }, behavior: { latency: '20' } }),
    );
    const scenario = join(dir, 'scenario.json');
    writeFileSync(scenario, JSON.stringify({ duration: 60, bot: { start: '0', stop: '30' } }));
    const served = await runCli(['serve', '--port', '0', '--config', config]);
    const simulated = await runCli(['simulate', '--scenario', scenario]);
    rmSync(dir, { recursive: true });
    expect(served.code).toBe(2);
    expect(served.stderr.split('\n')).toEqual([
      `uas: invalid config in ${config}: behavior.latency: give a unit, e.g. 20s or 20ms; got "20"`,
      `uas: invalid config in ${config}: otp.ttl: give a unit, e.g. 600s or 600ms; got 600`,
      '',
    ]);
    expect(simulated.code).toBe(2);
    expect(simulated.stderr.split('\n')).toEqual([
      `uas: invalid scenario (scenario file ${scenario}): duration: give a unit, e.g. 60s or 60ms; got 60`,
      `uas: invalid scenario (scenario file ${scenario}): bot.stop: give a unit, e.g. 30s or 30ms; got "30"`,
      '',
    ]);
  });

  it('escapes the control characters of what it repeats of the command line', async () => {
    const controls = '\x1b[2J\x1b]0;title\x07\x9b31m\u202e';
    const lines: string[][] = [
      [`se${controls}rve`],
      ['help', `x${controls}`],
      ['serve', `--po${controls}rt`],
      ['serve', '--port', `1${controls}`],
      ['serve', '--port', '0', '--config', `/nonexistent/${controls}`],
    ];
    for (const args of lines) {
      const result = await runCli(args);
      expectUsageError(result);
      expect(result.stderr.trimEnd()).not.toMatch(CONTROLS);
      expect(result.stderr).toContain('\\x1b[2J');
    }
  });

  it('prints the version for -V and --version before any command, and -v is never the version', async () => {
    for (const flag of ['-V', '--version']) {
      const result = await runCli([flag]);
      expect(result).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    }
    const lower = await runCli(['-v']);
    expect(lower.stdout).toBe('');
    expect(lower.stderr).toBe("uas: unknown option '-v'\n");
    const after = await runCli(['call', 'start', '--email', 'a@b.co', '--version']);
    expect(after.stdout).toBe('');
    expect(after.stderr).toBe("uas: unknown option '--version'\n");
  });

  it('says what a command group needs, and prints the help for uas alone', async () => {
    const call = await runCli(['call']);
    expect(call.stderr).toBe(
      'uas: call needs a command: exists, start, verify, flow (see uas call --help)\n',
    );
    const help = await runCli(['help', 'launch']);
    expect(help.code).toBe(2);
    expect(help.stderr).toMatch(/^uas: unknown command 'launch'; the commands: serve, call, /);
    const bare = await runCli([]);
    expect(bare.code).toBe(0);
    expect(bare.stdout).toMatch(/^Usage: uas \[options\] \[command\]/);
    expect(bare.stderr).toBe('');
  });

  it('quotes at most 100 characters of an argument it names', async () => {
    const long = 'a'.repeat(100_000);
    for (const args of [[long], ['help', long], ['call', 'exists', `--${long}`]]) {
      const result = await runCli(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`${'a'.repeat(98)}…'`);
      expect(result.stderr.length).toBeLessThan(300);
    }
  });

  it('prints the help of a command of a command asked with help', async () => {
    const asked = await runCli(['help', 'call', 'exists']);
    const direct = await runCli(['call', 'exists', '--help']);
    expect(asked).toEqual(direct);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toMatch(/^Usage: uas call exists /);
  });

  it('prints the help for the help of help, never a usage error', async () => {
    for (const args of [
      ['help', 'help'],
      ['help', '--help'],
    ]) {
      const result = await runCli(args);
      expect(result.stderr, args.join(' ')).toBe('');
      expect(result.stdout).toMatch(/^Usage: uas \[options\] \[command\]/);
      expect(result.code).toBe(0);
    }
  });

  it('names the flag, or the missing field, for store settings without a Redis store', async () => {
    const prefix = await runCli(['serve', '--port', '0', '--store-prefix', 'staging']);
    expect(prefix.stderr).toBe(
      'uas: --store-prefix applies to a Redis store: add --store redis (a local redis-server started for it) or --store redis://host:6379\n',
    );
    const dir = mkdtempSync(join(tmpdir(), 'uas-config-'));
    const file = join(dir, 'uas.json');
    writeFileSync(
      file,
      JSON.stringify({ ...DEMO_CONFIG, store: { prefix: 'x' }, users: undefined }),
    );
    const missing = await runCli(['serve', '--port', '0', '--config', file]);
    const choice = join(dir, 'choice.json');
    writeFileSync(
      choice,
      JSON.stringify({ ...DEMO_CONFIG, store: { url: 'redis', onError: 'maybe' } }),
    );
    const bad = await runCli(['serve', '--port', '0', '--config', choice]);
    rmSync(dir, { recursive: true });
    expect(bad.stderr).toBe(
      `uas: invalid config in ${choice}: store.onError: expected one of "open", "closed"; got "maybe"\n`,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')).toEqual([
      `uas: invalid config in ${file}: users: missing (expected a list)`,
      expect.stringMatching(/^uas: invalid config in .*: store: url is missing: give "redis"/),
      '',
    ]);
  });

  it.each([
    ['unknown command', ['launch']],
    ['bad config file', ['serve', '--config', '/nonexistent/uas.json']],
    ['bad URL', ['call', 'exists', '--email', 'a@b.co', '--url', '://nope']],
  ])('the built binary too: %s', async (_name, args) => {
    expectUsageError(await runUas(args));
  });
});

/** A port on this machine nothing listens on (one just closed). */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** Fails unless every line on stderr starts with "uas:" and the exit code is `code`. */
const expectErrorLines = (result: { code: number; stderr: string }, code: number) => {
  expect(result.code, result.stderr).toBe(code);
  const lines = result.stderr.replace(/\n$/, '').split('\n');
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(line, result.stderr).toMatch(/^uas: \S/);
};

describe('errors at run time', () => {
  let emulator: EmulatorHttpServer | undefined;
  let hostile: HostileServer | undefined;
  afterEach(async () => {
    await emulator?.close(100);
    await hostile?.close();
    emulator = hostile = undefined;
  });

  it('start every line with uas:, retry notices included, whatever the command', async () => {
    const down = await closedPort();
    const email = ['--email', 'a@b.co'];
    const cases: Array<[string[], number]> = [
      [['call', 'exists', ...email, '--url', down, '--max-attempts', '2'], 4],
      [['call', 'flow', ...email, '--url', down, '--no-retry'], 4],
      [['code', 'a@b.co', '--url', down], 4],
      [['top', '--once', '--url', down], 4],
      [['top', '--once', '--json', '--url', down], 4],
      [['conform', '--url', down, '--timeout', '2s'], 4],
      [['check', '--url', down], 4],
      [['simulate', '--duration', '1s', '--modes', 'shared', '--target', down], 4],
    ];
    for (const [args, code] of cases) expectErrorLines(await runCli(args), code);
  });

  it('start every line with uas: when the service answers with errors', async () => {
    const clock = createManualClock(Date.UTC(2026, 0, 1));
    const limits = { ...DEMO_CONFIG.limits, caller: { burst: 1, rate: '1/h' } };
    emulator = await listen(
      createEmulator({ config: { ...DEMO_CONFIG, limits }, clock }),
      0,
      '127.0.0.1',
    );
    const url = ['--url', emulator.url];
    const flow = await runCli(['call', 'flow', '--email', 'nobody@example.com', ...url]);
    expectErrorLines(flow, 1);
    const args = ['call', 'exists', '--email', 'alice@example.com', '--caller-id', 'x', ...url];
    await runCli(args);
    // Retry-After (1 h) is past --max-wait: one attempt, then why it stopped.
    expectErrorLines(await runCli(args), 3);
    expectErrorLines(await runCli(['code', 'nobody@example.com', ...url]), 1);
    // 429s with a Retry-After of 0 s: each retry is announced, then the call gives up.
    hostile = await startHostileServer((socket) =>
      answer(
        socket,
        429,
        [
          ['Retry-After', '0'],
          ['Content-Type', 'application/problem+json'],
        ],
        '{}',
      ),
    );
    const retried = await runCli(['call', 'exists', '--email', 'a@b.co', '--url', hostile.url]);
    expectErrorLines(retried, 3);
    expect(retried.stderr).toMatch(/^uas: 429 on exists: .*; attempt 2 of 3 in /m);
  });
});
