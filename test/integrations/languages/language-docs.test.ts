import { describe, expect, it } from 'vitest';
import { argumentOf, pageBlocks } from '../../docs/doc-blocks.js';
import { flagsOf, LANGUAGE_SUITES, type LanguageSuite } from './language-suites.js';

// The commands docs/languages.md and README.md show for the Python, Go and Java backends are the
// runs python.test.ts, go.test.ts and java.test.ts make, with the rules each raises.

const THIS_TEST = 'test/integrations/languages/language-docs.test.ts';
const shown = (page: string) =>
  pageBlocks(page)
    .filter((block) => argumentOf(block) === THIS_TEST)
    .map((block) => block.body.trimEnd().split('\n'));

/** `uas check [flags] -- <command>`, with what it raises as its comment. */
const lineOf = (command: string, rules: readonly string[]) =>
  `${command}  # ${rules.length === 0 ? 'nothing wrong' : rules.join(', ')}`;

/** A line as the page writes it, its comment's alignment aside. */
const unaligned = (line: string) => line.replace(/\s+#/, '  #');

describe('docs/languages.md', () => {
  const blocks = shown('docs/languages.md');

  it('shows one block of runs per language, and no other', () => {
    expect(blocks.map((lines) => lines[0])).toEqual(
      LANGUAGE_SUITES.map(({ folder }) => `cd fixtures/integrations/${folder}`),
    );
  });

  it.each(LANGUAGE_SUITES.map((suite) => [suite.name, suite] as const))(
    'shows every run of the %s backends the tests make, with the rules it raises',
    (_name, suite: LanguageSuite) => {
      const block = blocks.find((lines) => lines[0] === `cd fixtures/integrations/${suite.folder}`);
      const runs = suite.cases.map((test) => {
        const command = ['uas check', ...flagsOf(test), '--', ...suite.command(test.variant)];
        return lineOf(command.join(' '), test.rules);
      });
      expect(block?.slice(1).map(unaligned)).toEqual(runs);
    },
  );
});

describe('README.md', () => {
  it('shows, for each language, the run of its correct backend the tests make with no flag', () => {
    const lines = LANGUAGE_SUITES.map((suite) => {
      const run = suite.cases.find((test) => test.chaos === 'default' && test.rules.length === 0);
      expect(run?.variant, suite.name).toBe('correct');
      const command = suite.command('correct').join(' ');
      return `(cd fixtures/integrations/${suite.folder} && uas check -- ${command})`;
    });
    expect(
      shown('README.md').map((block) => block.map((line) => line.replace(/\s+#.*$/, ''))),
    ).toEqual([lines]);
  });
});
