import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type EmulatorHttpServer } from '../../src/adapters/http/http-server.js';
import { playbackLine } from '../../src/cli/simulate/run-simulate.js';
import { createEmulator } from '../../src/emulator.js';
import { runCli } from '../helpers/run-cli.js';
import { runUas } from '../helpers/spawn-uas.js';
import { tempDir } from '../helpers/temp-dir.js';

let running: EmulatorHttpServer | undefined;
const fakes: Server[] = [];
afterEach(async () => {
  await running?.close(100);
  running = undefined;
  for (const fake of fakes.splice(0)) {
    fake.closeAllConnections();
    await new Promise((resolve) => fake.close(resolve));
  }
});

/**
 * A server that says it is a uas emulator (GET /__uas/health) and fails `POST /__uas/users` the
 * way `fail` does.
 */
async function brokenEmulator(fail: 'answer' | 'hang up'): Promise<string> {
  const fake = createServer((request, response) => {
    if (request.url === '/__uas/health') {
      response.setHeader('content-type', 'application/json');
      response.end('{"status":"ok"}');
    } else if (request.url === '/__uas/users' && fail === 'hang up') {
      request.socket.destroy();
    } else if (request.url === '/__uas/users') {
      response.statusCode = 500;
      response.end('Error: out of memory\n    at addUsers (dev-api.js:1:1)\n');
    } else response.end();
  });
  fakes.push(fake);
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
}

/** Any control character but a line feed. */
// eslint-disable-next-line no-control-regex -- looking for control characters
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;

/** Every key of a JSON value as a dotted path, array items as `[]`. */
function keyPaths(value: unknown, path = ''): string[] {
  if (Array.isArray(value))
    return [...new Set(value.flatMap((item) => keyPaths(item, `${path}[]`)))];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => [
    `${path}.${key}`,
    ...keyPaths(child, `${path}.${key}`),
  ]);
}

describe('uas simulate', () => {
  it('prints byte-identical JSON for the same seed', async () => {
    const args = [
      'simulate',
      '--duration',
      '2m',
      '--shoppers',
      '50',
      '--bot-rate',
      '25/s',
      '--seed',
      '9',
      '--json',
    ];
    const first = await runUas(args);
    const second = await runUas(args);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(second.stdout);
    const report = JSON.parse(first.stdout);
    expect(report.scenario).toMatchObject({ duration_s: 120, seed: 9, engine: 'virtual' });
    expect(report.modes).toHaveLength(4);
    expect(first.stderr).toMatch(/simulated \d+ requests in [\d.]+ s/);
  });

  it('names every key of --json in snake_case, nested ones too, as docs/simulate.md shows them', async () => {
    const result = await runCli([
      'simulate',
      ...['--duration', '2m', '--shoppers', '20', '--modes', 'per-caller', '--json'],
    ]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    const keys = keyPaths(report);
    expect(
      keys.filter((key) => !/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(key.split('.').at(-1)!)),
    ).toEqual([]);
    // docs/simulate.md's example is this very run, with one of its timeline spans (the fourth).
    const page = readFileSync(new URL('../../docs/simulate.md', import.meta.url), 'utf8');
    const section = page.slice(page.indexOf('## `--json`'));
    const example = JSON.parse(/```json\n([\s\S]*?)```/.exec(section)?.[1] ?? 'null');
    report.modes[0].timeline = [report.modes[0].timeline[3]];
    expect(example).toEqual(report);
  });

  it('says after a watched run how long it took, and when the machine could not keep up', () => {
    const summary = { simulatedMs: 80_000, wallMs: 2667, pausedMs: 0, speed: 30, behind: false };
    expect(playbackLine(summary)).toBe('played 80 s of simulated time in 2.7 s: 30x, as asked\n');
    expect(playbackLine({ ...summary, wallMs: 8000, pausedMs: 12_000, behind: true })).toBe(
      'played 80 s of simulated time in 8.0 s (and 12.0 s paused)\nuas: warning: this machine could not keep up with --speed 30: the run played at 10.0x\n',
    );
  });

  it('runs a preset and prints the comparison with verdicts', async () => {
    const result = await runUas([
      'simulate',
      '--preset',
      'user-enumeration',
      '--modes',
      'shared,per-caller',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('scenario user-enumeration');
    expect(result.stdout).toMatch(/shared\s+shoppers hurt/);
    expect(result.stdout).toMatch(/per-caller\s+protected/);
  });

  it('warns when --duration cuts the bot away, and blames no absent bot', async () => {
    const result = await runUas([
      'simulate',
      '--preset',
      'checkout-rush',
      '--duration',
      '60s',
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.warnings).toEqual([
      expect.stringMatching(
        /^the bot would start at 60 s, but the run ends at 60 s: this run has no bot/,
      ),
    ]);
    for (const mode of report.modes) {
      expect(mode.bot.requests).toBe(0);
      expect(mode.verdict).not.toMatch(/drained|protected/);
    }
    const staticMode = report.modes.find((mode: { mode: string }) => mode.mode === 'static');
    expect(staticMode.verdict).toMatch(
      /^shoppers hurt: .* exhaust it themselves \(the bot sent no requests\)$/,
    );
    const text = await runUas(['simulate', '--preset', 'checkout-rush', '--duration', '60s']);
    expect(text.stdout).toContain('no bot in this run (12/s on exists would start at 60 s)');
    expect(text.stdout).toContain('warning: the bot would start at 60 s, but the run ends at 60 s');
  });

  it('runs the scenario defaults of docs/simulate.md as a scenario file, unchanged', async () => {
    const page = readFileSync(new URL('../../docs/simulate.md', import.meta.url), 'utf8');
    const section = page.slice(page.indexOf('## Scenario file'));
    const block = /```json\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBeDefined();
    const file = join(tempDir('uas-scenario-'), 'defaults.json');
    writeFileSync(file, block as string);
    const fromFile = await runUas(['simulate', '--scenario', file, '--json']);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    const defaults = await runUas(['simulate', '--json']);
    expect(fromFile.stdout).toBe(defaults.stdout);
  });

  it('takes part of a bucket from a flag or a file, and the rest from the defaults or the preset', async () => {
    const limitsOf = async (args: string[]) => {
      const result = await runCli(['simulate', '--duration', '10s', '--json', ...args]);
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout).scenario.limits;
    };
    expect(await limitsOf(['--caller-rate', '2/s'])).toEqual({
      client: { burst: 20, rate: '10/s' },
      caller: { burst: 5, rate: '2/s' },
    });
    expect(await limitsOf(['--client-burst', '30'])).toEqual({
      client: { burst: 30, rate: '10/s' },
      caller: { burst: 5, rate: '1/s' },
    });
    const folder = tempDir('uas-scenario-');
    const file = join(folder, 'partial.json');
    writeFileSync(file, JSON.stringify({ limits: { caller: { rate: '2/s' } } }));
    expect(await limitsOf(['--scenario', file])).toEqual({
      client: { burst: 20, rate: '10/s' },
      caller: { burst: 5, rate: '2/s' },
    });
    const preset = join(folder, 'preset.json');
    writeFileSync(preset, JSON.stringify({ limits: { caller: { burst: 9, rate: '1/m' } } }));
    expect(await limitsOf(['--scenario', preset, '--caller-rate', '3/s'])).toEqual({
      client: { burst: 20, rate: '10/s' },
      caller: { burst: 9, rate: '3/s' },
    });
    // A limit a simulation does not use is refused, not ignored.
    const cost = join(folder, 'cost.json');
    writeFileSync(cost, JSON.stringify({ limits: { cost: { start: 2 } } }));
    const refused = await runCli(['simulate', '--scenario', cost]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^uas: invalid scenario \(scenario file [^)]*\): limits\.cost: unknown field/,
    );
  });

  it("shows a scenario file's name and description as text, in the terminal and in Markdown", async () => {
    const file = join(tempDir('uas-scenario-'), 'hostile.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'rush\u001b[2J\u009b31m',
        description: 'line\n## Owned | cell',
        duration: '10s',
        modes: ['shared'],
      }),
    );
    const text = await runCli(['simulate', '--scenario', file]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toMatch(CONTROL);
    expect(text.stdout).toContain('scenario rush\\x1b[2J\\x9b31m: line\\x0a## Owned | cell\n');
    const markdown = await runCli(['simulate', '--scenario', file, '--markdown']);
    expect(markdown.stdout).not.toMatch(CONTROL);
    expect(markdown.stdout).not.toMatch(/^## Owned/m);
    expect(markdown.stdout).toContain('line\\\\x0a\\#\\# Owned \\| cell');
  });

  it('lists the presets', async () => {
    const result = await runUas(['simulate', '--list-presets']);
    expect(result.stdout).toMatch(/checkout-rush[\s\S]*code-bombing[\s\S]*user-enumeration/);
  });

  it('prints Markdown for a write-up, and writes an HTML page on request', async () => {
    const file = join(tempDir('uas-html-'), 'report.html');
    const result = await runUas([
      'simulate',
      '--preset',
      'code-bombing',
      '--markdown',
      '--duration',
      '1m',
      '--html',
      file,
    ]);
    expect(result.stdout).toMatch(/^## Simulation: code-bombing/);
    expect(result.stderr).toContain(`wrote ${file}`);
    expect(readFileSync(file, 'utf8')).toContain('<h1>Simulation: code-bombing</h1>');
    const refused = await runUas([
      'simulate',
      '--duration',
      '1m',
      '--html',
      '/nonexistent/dir/report.html',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'cannot write --html /nonexistent/dir/report.html: ENOENT: its folder does not exist',
    );
  });

  it('rejects bad scenarios with one line naming the field and exit code 2', async () => {
    const file = join(tempDir('uas-scenario-'), 'bad.json');
    writeFileSync(file, JSON.stringify({ shoppers: { count: -1 } }));
    const cases: Array<[string[], string]> = [
      [['--scenario', file], 'invalid scenario (scenario file'],
      [['--bot-rate', 'fast'], 'invalid --bot-rate: expected a rate'],
      [['--modes', 'shared,everyone'], 'invalid --modes'],
      [['--modes', 'shared,per-caller,shared'], 'invalid --modes: expected each mode once'],
      [['--modes', ','], 'invalid --modes: expected 1 to 4 modes; got 0'],
      [['--preset', 'nope'], 'unknown --preset "nope"'],
      [['--scenario', '/nonexistent.json'], 'cannot read scenario file'],
      [['--seed', 'x'], "argument 'x' is invalid"],
      [['--target', 'ftp://x'], 'invalid --target'],
    ];
    for (const [args, message] of cases) {
      const result = await runUas(['simulate', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toContain(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('refuses the flags of a live run without --target, and --speed without --watch, exit 2', async () => {
    const cases: Array<[string[], string]> = [
      [['--token', 'uas-demo-token'], 'uas: --token goes with --target <url> (a live run)\n'],
      [['--merchant', 'x'], 'uas: --merchant goes with --target <url> (a live run)\n'],
      [['--admin-token', 'x'], 'uas: --admin-token goes with --target <url> (a live run)\n'],
      [['--concurrency', '8'], 'uas: --concurrency goes with --target <url> (a live run)\n'],
      [['--speed', '5'], 'uas: --speed goes with --watch\n'],
    ];
    for (const [args, said] of cases) {
      const result = await runUas(['simulate', '--preset', 'code-bombing', ...args]);
      expect(result, args.join(' ')).toEqual({ code: 2, stdout: '', stderr: said });
    }
  });

  it('refuses an empty --token of a live run in one line, exit 2, where createClient threw a stack trace', async () => {
    running = await listen(createEmulator(), 0, '127.0.0.1');
    const result = await runUas(['simulate', '--target', running.url, '--token', '']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'uas: the token of --token is empty; give a token, or leave --token out\n',
    });
  });

  it('ends a live run whose dev API fails with one line and a non-zero exit, never a stack trace', async () => {
    const refused = await runUas(['simulate', '--target', await brokenEmulator('answer')]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      "uas: the target's dev API refused POST /__uas/users: 500 Error: out of memory at addUsers (dev-api.js:1:1)\n",
    );
    const hungUp = await runUas(['simulate', '--target', await brokenEmulator('hang up')]);
    expect(hungUp.code).toBe(4);
    expect(hungUp.stderr).toMatch(
      /^uas: the target's dev API did not answer POST \/__uas\/users: [^\n]+\n$/,
    );
  });

  it('follows no redirect of a live target, its first probe included', async () => {
    const listening = async (fake: Server) => {
      fakes.push(fake);
      await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    };
    const elsewhere: string[] = [];
    const sink = await listening(
      createServer((request, response) => {
        elsewhere.push(`${request.method} ${request.url}`);
        response.end();
      }),
    );
    const target = await listening(
      createServer((request, response) => {
        response.writeHead(307, { location: `${sink}${request.url}` });
        response.end();
      }),
    );
    const args = ['--duration', '1s', '--shoppers', '1', '--modes', 'shared', '--json'];
    const result = await runUas(['simulate', '--target', target, ...args]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).modes[0].bot.allowed).toBe(0);
    expect(elsewhere).toEqual([]);
  });

  it('drives a running emulator live over HTTP, with counts no timing can change', async () => {
    running = await listen(createEmulator(), 0, '127.0.0.1');
    // Buckets that cannot refill a token within the test (1 an hour), and a bot whose 40
    // requests (20/s for 2 s, sent on schedule) never exceed --concurrency: what each bucket
    // lets through is then fixed by the burst sizes, however slow the machine is.
    const result = await runUas([
      'simulate',
      '--target',
      running.url,
      '--duration',
      '2s',
      '--shoppers',
      '6',
      '--arrival-rate',
      '20/s',
      '--think-time',
      '10ms-20ms',
      '--bot-rate',
      '20/s',
      '--client-burst',
      '10',
      '--client-rate',
      '1/h',
      '--caller-burst',
      '5',
      '--caller-rate',
      '1/h',
      '--concurrency',
      '64',
      '--modes',
      'shared,per-caller',
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.scenario).toMatchObject({ engine: 'live', target: running.url });
    expect(report.warnings).toEqual([]);
    const [shared, perCaller] = report.modes;
    for (const mode of [shared, perCaller]) {
      expect(mode.bot.requests).toBeGreaterThanOrEqual(39);
      expect(mode.bot.rejected).toBe(mode.bot.requests - mode.bot.allowed);
      const { arrived, completed, failed, unfinished } = mode.shoppers;
      expect(completed + failed + unfinished).toBe(arrived);
    }
    // shared: the bot and the shoppers take the client bucket's 10 tokens between them.
    const sharedShopperAllowed =
      shared.legitimate_requests.total - shared.legitimate_requests.rejected_429;
    expect(shared.bot.allowed + sharedShopperAllowed).toBe(10);
    // per-caller: the bot gets its own burst of 5; each shopper's 3 requests fit in its own 5.
    expect(perCaller.bot.allowed).toBe(5);
    expect(perCaller.legitimate_requests.rejected_429).toBe(0);
    expect(perCaller.shoppers.failed).toBe(0);
    // The one wall-clock assertion, with seconds of margin: the first shopper arrives after
    // about 50 ms and needs four round trips (exists, start, code, verify) before the 2 s end.
    expect(perCaller.shoppers.completed).toBeGreaterThan(0);
    // "protected" needs 95% of the sign-ins that arrived completed, whatever ran late.
    const served = perCaller.shoppers.completed * 100 >= 95 * perCaller.shoppers.arrived;
    expect(perCaller.verdict).toMatch(served ? /^protected: / : /^too short to judge: /);
  });

  it('warns on stderr before a live run that will have no bot', async () => {
    running = await listen(createEmulator(), 0, '127.0.0.1');
    const result = await runUas([
      'simulate',
      '--target',
      running.url,
      '--duration',
      '1s',
      '--shoppers',
      '1',
      '--bot-start',
      '1s',
      '--modes',
      'per-caller',
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /^uas: warning: the bot would start at 1 s, but the run ends at 1 s: this run has no bot[^\n]*\nlive: running mode per-caller for 1 s\n/,
    );
    const [mode] = JSON.parse(result.stdout).modes;
    expect(mode.bot.requests).toBe(0);
    expect(mode.verdict).not.toMatch(/protected|drained|unchecked/);
  });
});
