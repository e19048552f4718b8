import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type EmulatorHttpServer } from '../../src/adapters/http/http-server.js';
import { createEmulator } from '../../src/emulator.js';
import { runUas } from '../helpers/spawn-uas.js';

let running: EmulatorHttpServer | undefined;
afterEach(async () => {
  await running?.close(100);
  running = undefined;
});

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

  it("runs README's scenario defaults as a scenario file, unchanged", async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('**Scenario file**'));
    const block = /```json\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBeDefined();
    const file = join(mkdtempSync(join(tmpdir(), 'uas-scenario-')), 'defaults.json');
    writeFileSync(file, block as string);
    const fromFile = await runUas(['simulate', '--scenario', file, '--json']);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    const defaults = await runUas(['simulate', '--json']);
    expect(fromFile.stdout).toBe(defaults.stdout);
  });

  it('lists the presets', async () => {
    const result = await runUas(['simulate', '--list-presets']);
    expect(result.stdout).toMatch(/checkout-rush[\s\S]*code-bombing[\s\S]*user-enumeration/);
  });

  it('prints Markdown for a write-up, and writes an HTML page on request', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'uas-html-')), 'report.html');
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
    expect(refused.stderr).toContain('cannot write --html /nonexistent/dir/report.html: ENOENT');
  });

  it('rejects bad scenarios with one line naming the field and exit code 2', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'uas-scenario-')), 'bad.json');
    writeFileSync(file, JSON.stringify({ shoppers: { count: -1 } }));
    const cases: Array<[string[], string]> = [
      [['--scenario', file], 'invalid scenario (scenario file'],
      [['--bot-rate', 'fast'], 'invalid --bot-rate: expected a rate'],
      [['--modes', 'shared,everyone'], 'invalid --modes'],
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

  it('drives a running emulator live over HTTP', async () => {
    running = await listen(createEmulator(), 0, '127.0.0.1');
    const result = await runUas([
      'simulate',
      '--target',
      running.url,
      '--duration',
      '2s',
      '--shoppers',
      '6',
      '--arrival-rate',
      '10/s',
      '--think-time',
      '50ms-100ms',
      '--bot-rate',
      '40/s',
      '--modes',
      'shared,per-caller',
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.scenario).toMatchObject({ engine: 'live', target: running.url });
    const [shared, perCaller] = report.modes;
    expect(perCaller.shoppers.completed).toBeGreaterThan(0);
    expect(perCaller.shoppers.failed).toBe(0);
    expect(perCaller.bot.rejected).toBeGreaterThan(0);
    expect(shared.bot.requests).toBeGreaterThan(20);
    expect(report.simulated_requests).toBeGreaterThan(40);
  });
});
