import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_CONFIG } from '../../src/demo-config.js';
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
  ['serve: bad latency', ['serve', '--port', '0', '--latency', 'slow']],
  ['serve: latency past the bound', ['serve', '--port', '0', '--latency', '30d']],
  ['serve: bad otp', ['serve', '--port', '0', '--otp', 'fixed:12']],
  ['serve: code lifetime past the bound', ['serve', '--port', '0', '--otp-ttl', '300000y']],
  [
    'serve: huge fixed Retry-After',
    ['serve', '--port', '0', '--retry-after', 'fixed:100000000000000000000000'],
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
  ['conform: max-wait past a timer', ['conform', '--max-wait', '30d']],
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
    ['conform', '--max-wait', '2.5'],
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
    'invalid --timeout: expected a duration such as "30s" or "10m"; got "5"',
  ],
];

const expectUsageError = (result: { code: number | null; stderr: string }) => {
  expect(result.code).toBe(2);
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr).toMatch(/^(uas: |error: )/);
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

  it.each(CASES)('%s: one line, exit 2, no stack trace', async (_name, args) => {
    expectUsageError(await runCli(args));
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
