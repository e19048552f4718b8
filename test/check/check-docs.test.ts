import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UAS_BIN } from '../helpers/spawn-uas.js';
import { FIXTURE_CASES, FIXTURES } from './fixture-cases.js';

// docs/check.md shows code, output and a table of the fixtures: each is held to what it shows.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');
const section = read('docs/check.md');

/** The fenced blocks of the page, in order, with their language. */
const blocks = [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map(([, lang, body]) => ({
  lang,
  body: body!,
}));

describe('docs/check.md', () => {
  it('is the page on uas check, linked from README and from the index of docs/', () => {
    expect(section.split('\n')[0]).toBe('# uas check: is my integration right?');
    expect(read('README.md')).toContain('](docs/check.md');
    expect(read('docs/README.md')).toContain('](check.md)');
  });

  it('shows the test-suite recipe as it is in test/check/recipes', () => {
    expect(section).toContain(read('test/check/recipes/clean-integration.test.ts').trimEnd());
  });

  it('shows an excerpt of a fixture as it is, and the report uas check prints for it', () => {
    const excerpt = blocks.find((block) => block.lang === 'js')!.body;
    expect(read('fixtures/integrations/proxy-address-caller-id.mjs')).toContain(excerpt);

    const command = blocks.find(
      (block) => block.lang === 'sh' && block.body.includes('-- node fixtures/integrations/'),
    )!.body;
    const shown = blocks[blocks.findIndex((block) => block.body === command) + 1]!.body;
    const args = command.trim().split(/\s+/).slice(1);
    const run = spawnSync(process.execPath, [UAS_BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    // What may differ from run to run: the time the run took, the seed chosen at random, and the
    // requests of the evidence (their times, and which of the concurrent shoppers came first),
    // shown by id only.
    const span = (text: string) =>
      text
        .replace(/ over \d+\.\d s/, ' over … s')
        .replace(/^seed \d+: --seed \d+ /m, 'seed …: --seed … ')
        .replace(/^( {4}#\d+) .*$/gm, '$1 …');
    expect(span(run.stdout)).toBe(span(shown));
  });

  it('lists every fixture with the flags and rules its test asserts', () => {
    const rows = [...section.matchAll(/^\| `([\w-]+)\.mjs` +\|[^|]*\|([^|]*)\|([^|]*)\|$/gm)].map(
      ([, fixture, flags, raises]) => ({
        fixture,
        flags: flags!.trim().split('; ').sort().join('; '),
        rules: raises!.trim() === 'nothing' ? [] : raises!.match(/[\w-]+(?=`)/g)!.sort(),
      }),
    );
    const expected = new Map<string, { flags: string[]; rules: string[] }>();
    for (const { fixture, flags, rules } of FIXTURE_CASES) {
      const entry = expected.get(fixture) ?? { flags: [], rules: [...rules].sort() };
      entry.flags.push(`\`${flags.join(' ').replace(FIXTURES, 'fixtures/integrations/')}\``);
      expected.set(fixture, entry);
    }
    const byName = (a: { fixture?: string }, b: { fixture?: string }) =>
      a.fixture!.localeCompare(b.fixture!);
    expect(rows.sort(byName)).toEqual(
      [...expected]
        .map(([fixture, { flags, rules }]) => ({ fixture, flags: flags.sort().join('; '), rules }))
        .sort(byName),
    );
  });
});
