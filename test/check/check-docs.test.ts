import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UAS_BIN } from '../helpers/spawn-uas.js';
import { FIXTURE_CASES, FIXTURES } from './fixture-cases.js';

// The README section on uas check shows code, output and a table of the fixtures: each is held
// to what it shows.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');
const readme = read('README.md');
const section = readme.slice(
  readme.indexOf('## uas check: is my integration right?'),
  readme.indexOf('## `uas simulate`'),
);

/** The fenced blocks of the section, in order, with their language. */
const blocks = [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map(([, lang, body]) => ({
  lang,
  body: body!,
}));

describe('the README section on uas check', () => {
  it('sits right after uas call and its subsections', () => {
    const headings = [...readme.matchAll(/^## .*$/gm)].map(([heading]) => heading);
    const at = headings.indexOf('## uas check: is my integration right?');
    expect(headings.slice(at - 1, at + 2)).toEqual([
      '## `uas call`',
      '## uas check: is my integration right?',
      '## `uas simulate`',
    ]);
  });

  it('shows the test-suite recipe as it is in test/check/recipes', () => {
    expect(section).toContain(read('test/check/recipes/clean-integration.test.ts').trimEnd());
  });

  it('shows an excerpt of a fixture as it is, and the report uas check prints for it', () => {
    const excerpt = blocks.find((block) => block.lang === 'js')!.body;
    expect(read('fixtures/integrations/proxy-address-caller-id.mjs')).toContain(excerpt);

    const command = blocks.find((block) => block.body.startsWith('node bin/uas.js check'))!.body;
    const shown = blocks[blocks.findIndex((block) => block.body === command) + 1]!.body;
    const args = command.trim().split(/\s+/).slice(2);
    const run = spawnSync(process.execPath, [UAS_BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    // What may differ from run to run: the time the run took, and the requests of the evidence
    // (their times, and which of the concurrent shoppers came first), shown by id only.
    const span = (text: string) =>
      text.replace(/ over \d+\.\d s/, ' over … s').replace(/^( {4}#\d+) .*$/gm, '$1 …');
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
