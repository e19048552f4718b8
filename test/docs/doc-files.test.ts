import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/index.js';
import { FIXTURE_CASES, FIXTURES } from '../check/fixture-cases.js';
import { spawnUas, waitForUrl } from '../helpers/spawn-uas.js';
import { argumentOf, blocksOf, ROOT, where, type DocBlock } from './doc-blocks.js';

// The blocks of README and docs/ that show a file of this repository, a config file, npm scripts
// or a `uas check` of a fixture: each is held to what it shows.

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const cases = (runner: string) => blocksOf(runner).map((block) => [where(block), block] as const);

/**
 * The parts of an excerpt: the block, cut at lines that are only `// ...` (`# ...` in Python: a
 * gap). Lines are compared without their indentation, which Prettier takes from a piece of a
 * function.
 */
const partsOf = (block: DocBlock): string[] =>
  block.body
    .split(/^\s*(?:\/\/|#) \.\.\.\n/m)
    .map((part) => dedent(part.replace(/\n$/, '')))
    .filter((part) => part.trim() !== '');

const dedent = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trimStart())
    .join('\n');

describe('the blocks that show a file', () => {
  it.each(cases('file'))('show it whole: %s', (_, block) => {
    expect(block.body.trimEnd()).toBe(read(argumentOf(block)).trimEnd());
  });

  it.each(cases('excerpt'))('show pieces of it, in order: %s', (_, block) => {
    const file = dedent(read(argumentOf(block)));
    let from = 0;
    for (const part of partsOf(block)) {
      const at = file.indexOf(part, from);
      expect(at, `${part}\nis not in ${argumentOf(block)} (after offset ${from})`).toBeGreaterThan(
        -1,
      );
      from = at + part.length;
    }
  });
});

describe('the config files shown', () => {
  it.each(cases('config'))(
    'start uas serve -c: %s',
    async (_, block) => {
      const dir = mkdtempSync(join(tmpdir(), 'uas-docs-config-'));
      try {
        writeFileSync(join(dir, 'config.json'), block.body);
        const uas = spawnUas([
          'serve',
          '-c',
          join(dir, 'config.json'),
          '--port',
          '0',
          '--log',
          'off',
        ]);
        try {
          await waitForUrl(uas);
        } finally {
          uas.child.kill('SIGTERM');
          await uas.exited;
        }
        expect(uas.stderr()).toBe('');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    30_000,
  );

  it("give every optional field its default, where the page says so (config.md's full shape)", () => {
    const full = blocksOf('config').find((block) => block.page === 'docs/config.md');
    const config = JSON.parse(full!.body) as Record<string, never> & {
      limits: { client: unknown; caller: unknown };
    };
    const required = {
      clients: config.clients,
      users: config.users,
      limits: { client: config.limits.client, caller: config.limits.caller },
    };
    // `source` is the file as given; everything else is what the emulator runs on.
    const { source: _given, ...resolved } = resolveConfig(config);
    const { source: _required, ...defaults } = resolveConfig(required);
    expect(resolved).toEqual(defaults);
  });
});

describe('the uas check commands of fixtures', () => {
  /** `--chaos 0 -c x` as sorted `flag value` pairs, the fixtures' folder written as in the docs. */
  const pairs = (flags: readonly string[]) =>
    flags
      .map((flag) => flag.replace(FIXTURES, 'fixtures/integrations/'))
      .flatMap((flag, index, all) => (flag.startsWith('-') ? [`${flag} ${all[index + 1]}`] : []))
      .sort();

  it.each(cases('fixture-case'))(
    'are cases test/check/integrations.test.ts runs, raising the rule named: %s',
    (_, block) => {
      const command = /^uas check (.*) -- node fixtures\/integrations\/([\w-]+)\.mjs\n$/.exec(
        block.body,
      );
      expect(command, block.body).not.toBeNull();
      const [, flags, fixture] = command!;
      const matching = FIXTURE_CASES.filter(
        (test) =>
          test.fixture === fixture &&
          JSON.stringify(pairs(test.flags)) === JSON.stringify(pairs(flags!.split(' '))),
      );
      expect(matching).toHaveLength(1);
      expect(matching[0]!.rules).toContain(argumentOf(block));
    },
  );
});

describe('the npm commands shown', () => {
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;

  it.each(cases('npm-scripts'))('name scripts package.json has: %s', (_, block) => {
    const named = [...block.body.matchAll(/\bnpm (?:run ([\w:-]+)|(start|test)\b)/g)].map(
      ([, script, short]) => (script ?? short)!,
    );
    expect(
      named.length + (/\bnpm (install|link)\b|\bnpx uas\b/.test(block.body) ? 1 : 0),
    ).toBeGreaterThan(0);
    expect(named.filter((script) => scripts[script] === undefined)).toEqual([]);
  });

  it('start the emulator with npm start, and run the suite with npm test and test:e2e', () => {
    expect(scripts.start).toMatch(/^npm run build && node bin\/uas\.js serve$/);
    expect(scripts.test).toMatch(
      /^npm run build && npm run typecheck && npm run lint:layers && vitest run --project unit --project integration$/,
    );
    expect(scripts['test:e2e']).toMatch(/^npm run build && vitest run --project e2e$/);
  });
});
