import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatIssue, isConfigError } from '../core/config/config-error.js';
import { formatMarkdown, formatReport } from './report-format.js';
import { formatHtml } from './report-html.js';
import { resolveScenario } from './scenario.js';
import { simulate } from './simulation.js';
import { MAX_SHOPPERS, VICTIMS } from './simulation-config.js';
import { BOUNDS } from '../core/config/config-schema.js';
import { Chalk } from 'chalk';

const SMALL = {
  duration: '5m',
  seed: 3,
  shoppers: { count: 120, arrivalRate: '1/2s' },
  bot: { rate: '30/s', target: 'exists' },
};

describe('the most shoppers', () => {
  it('is what an emulator holds as users beside the victims, and a run of them all completes', async () => {
    expect(MAX_SHOPPERS + VICTIMS).toBe(BOUNDS.users);
    // All arrive within the run: before, more than 99,950 ended in a ConfigError stack trace.
    const scenario = {
      duration: '2m',
      shoppers: { count: MAX_SHOPPERS, arrivalRate: '1000/s' },
      bot: { rate: '1/s' },
      modes: ['per-caller'],
    };
    const report = await simulate(resolveScenario(scenario));
    expect(report.modes[0]?.shoppers.arrived).toBe(MAX_SHOPPERS);
    expect(() => resolveScenario({ shoppers: { count: MAX_SHOPPERS + 1 } })).toThrow(
      /shoppers\.count: expected a whole number from 1 to 99950/,
    );
  });
});

describe('simulate', () => {
  it('hurts shoppers in shared and static modes, protects them per caller, and reports rotating as unprotected', async () => {
    const report = await simulate(resolveScenario(SMALL));
    const byMode = Object.fromEntries(report.modes.map((mode) => [mode.mode, mode]));
    expect(byMode.shared?.shoppers.success_rate).toBeLessThan(0.5);
    expect(byMode.static?.shoppers.success_rate).toBeLessThan(0.5);
    expect(byMode['per-caller']?.shoppers.success_rate).toBe(1);
    expect(byMode['per-caller']?.bot.allowed_rate).toBeLessThan(0.1);
    expect(byMode.rotating?.bot.allowed_rate).toBe(1);
    expect(byMode.shared?.verdict).toMatch(/^shoppers hurt/);
    expect(byMode['per-caller']?.verdict).toMatch(/^protected/);
    expect(byMode.rotating?.verdict).toContain('UNPROTECTED');
    expect(byMode.shared?.legitimate_requests.retries).toBeGreaterThan(0);
  });

  it('gives byte-identical reports for the same seed and different ones for another', async () => {
    const once = JSON.stringify(await simulate(resolveScenario(SMALL)));
    const twice = JSON.stringify(await simulate(resolveScenario(SMALL)));
    const other = JSON.stringify(await simulate(resolveScenario({ ...SMALL, seed: 4 })));
    expect(twice).toBe(once);
    expect(other).not.toBe(once);
  });

  it('gives the time bins of a short run to the millisecond: no bin from 0 s to 0 s, no chart "per 0 s"', async () => {
    const report = await simulate(resolveScenario({ ...SMALL, duration: '1s' }));
    const timeline = report.modes[0]!.timeline;
    const bin = Math.round(1000 / timeline.length) / 1000; // 24 bins: 0.042 s
    expect(timeline[0]).toMatchObject({ from_s: 0, to_s: bin });
    for (const bin of timeline) expect(bin.to_s).toBeGreaterThan(bin.from_s);
    expect(timeline.at(-1)!.to_s).toBe(1);
    const plain = formatReport(report, new Chalk({ level: 0 }));
    expect(plain).toContain(`per ${bin} s of simulated time`);
    expect(plain).not.toMatch(/per 0 s/);
  });

  it('leaves shoppers alone when the bot is slower than the client bucket refills', async () => {
    const report = await simulate(
      resolveScenario({ ...SMALL, bot: { rate: '1/s' }, modes: ['shared'] }),
    );
    expect(report.modes[0]?.shoppers.success_rate).toBe(1);
    // A bot under the limit is not stopped either, and the verdict says so: it is within it.
    const bot = report.modes[0]!.bot;
    expect(bot.allowed).toBe(bot.requests);
    expect(report.modes[0]?.verdict).toMatch(
      new RegExp(
        `^bot within its limit: the bot got ${bot.allowed} of its ${bot.requests} requests through \\(100\\.0%\\), no more than the client bucket it shares with the shoppers allows`,
      ),
    );
  });

  it.each(
    readdirSync(new URL('../../fixtures/scenarios/', import.meta.url)).filter((name) =>
      name.endsWith('.json'),
    ),
  )('runs the preset %s', async (name) => {
    const preset = JSON.parse(
      readFileSync(new URL(`../../fixtures/scenarios/${name}`, import.meta.url), 'utf8'),
    );
    const report = await simulate(resolveScenario(preset));
    expect(report.scenario.name).toBe(name.replace('.json', ''));
    expect(report.modes.map((mode) => mode.mode)).toEqual([
      'shared',
      'per-caller',
      'static',
      'rotating',
    ]);
    expect(report.modes.find((mode) => mode.mode === 'per-caller')?.verdict).toMatch(/^protected/);
    expect(report.modes.find((mode) => mode.mode === 'shared')?.verdict).toMatch(/^shoppers hurt/);
  });

  it('renders the report as a table with a chart, and as Markdown', async () => {
    const report = await simulate(resolveScenario({ ...SMALL, modes: ['shared', 'per-caller'] }));
    const text = formatReport(report, new Chalk({ level: 0 }));
    expect(text).toContain('sign-ins completed');
    expect(text).toContain('sign-ins that succeeded, per');
    const markdown = formatMarkdown(report);
    expect(markdown).toMatch(/^## Simulation: custom/);
    expect(markdown).toContain('| sign-ins completed |');
    expect(markdown).toContain('- **per-caller**');
    const html = formatHtml({
      ...report,
      scenario: { ...report.scenario, name: '<script>x</script>' },
    });
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#60;script&#62;x&#60;/script&#62;');
    expect(html.match(/<polyline /g)).toHaveLength(2);
    expect(html).toContain('<th>sign-ins completed</th>');
  });
});

describe('resolveScenario', () => {
  const issues = (input: unknown) => {
    try {
      resolveScenario(input);
      return [];
    } catch (error) {
      if (isConfigError(error)) return error.issues.map(formatIssue);
      throw error;
    }
  };

  it('names the bad field', () => {
    expect(issues({ bot: { rate: 'lots' } })).toEqual([
      'bot.rate: expected a rate such as "2/s", "100/m" or "5/10s"; got "lots"',
    ]);
    expect(issues({ modes: ['everyone'] })[0]).toMatch(/^modes\[0\]: /);
    expect(issues({ shoppers: { thinkTime: '9s-2s' } })[0]).toMatch(/^shoppers.thinkTime: /);
    expect(issues({ duration: '0s' })).toEqual(['duration: expected more than zero']);
    expect(issues({ bot: { start: '5m', stop: '1m' } })[0]).toMatch(/^bot.stop: /);
    // A window of no time leaves no bot at all: refused like a stop before the start.
    expect(issues({ bot: { start: '1m', stop: '1m' } })).toEqual([
      'bot.stop: expected a time after bot.start (1m)',
    ]);
    expect(issues({ bot: { stop: '0s' } })).toEqual([
      'bot.stop: expected a time after bot.start (0s)',
    ]);
    expect(issues({ shopers: {} })[0]).toContain('shopers');
  });
});
