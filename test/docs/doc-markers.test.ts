import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  allBlocks,
  argumentOf,
  DOC_PAGES,
  readPage,
  ROOT,
  where,
  type DocBlock,
} from './doc-blocks.js';
import { anchorsOf, linksOf, resolveLink } from './doc-links.js';

// Every fenced block of README and docs/ is checked by a test or says why not; every link between
// the pages lands on a page and a heading that exist; README stays short enough to read.

/** The runners that check blocks, each with the test file that runs it. */
const RUNNERS: Record<string, string> = {
  sh: 'test/docs/doc-shell.test.ts',
  output: 'test/docs/doc-shell.test.ts',
  'json-keys': 'test/docs/doc-shell.test.ts',
  terminal: 'test/docs/doc-terminal.test.ts',
  typecheck: 'test/recipes/readme.test.ts',
  file: 'test/docs/doc-files.test.ts',
  excerpt: 'test/docs/doc-files.test.ts',
  config: 'test/docs/doc-files.test.ts',
  'fixture-case': 'test/docs/doc-files.test.ts',
  'npm-scripts': 'test/docs/doc-files.test.ts',
  example: 'test/docs/doc-examples.test.ts',
  by: '',
};

const blocks = allBlocks();
const label = (block: DocBlock) => `${where(block)} (${block.lang || 'no language'})`;

describe('the fenced blocks of README and docs/', () => {
  it('are many, on every page that shows code', () => {
    expect(blocks.length).toBeGreaterThan(60);
  });

  it('each say how a test checks them, or why none does', () => {
    expect(blocks.filter((block) => block.marker === undefined).map(label)).toEqual([]);
  });

  it('each name a runner that exists, with what it needs', () => {
    const wrong = blocks.filter((block) => {
      const marker = block.marker;
      if (marker?.kind === 'not-run') return marker.reason.length < 20;
      if (marker?.kind !== 'test' || !(marker.runner in RUNNERS)) return true;
      const needsArgument = [
        'output',
        'json-keys',
        'file',
        'excerpt',
        'fixture-case',
        'example',
        'by',
      ];
      return needsArgument.includes(marker.runner) && marker.argument === '';
    });
    expect(wrong.map(label)).toEqual([]);
  });

  it.each(
    blocks
      .filter((block) => block.marker?.kind === 'test' && block.marker.runner === 'by')
      .map((block) => [label(block), block] as const),
  )('are read by the test they name: %s', (_, block) => {
    const test = argumentOf(block);
    expect(existsSync(`${ROOT}${test}`), test).toBe(true);
    expect(readFileSync(`${ROOT}${test}`, 'utf8'), `${test} reads ${block.page}`).toContain(
      block.page,
    );
  });

  it('show code in the language they name', () => {
    const untyped = blocks.filter((block) => block.lang === '');
    expect(untyped.map(label)).toEqual([]);
  });
});

describe('the links of README and docs/', () => {
  it.each(DOC_PAGES)('land on a page and a heading that exist, from %s', (page) => {
    const broken = linksOf(readPage(page))
      .map((link) => ({ link, target: resolveLink(page, link) }))
      .filter(({ target }) => target !== undefined)
      .filter(({ target }) => {
        const { file, anchor } = target!;
        if (!existsSync(`${ROOT}${file}`)) return true;
        return (
          anchor !== undefined && file.endsWith('.md') && !anchorsOf(readPage(file)).has(anchor)
        );
      })
      .map(({ link }) => link);
    expect(broken).toEqual([]);
  });

  it('list every page of docs/ in its index and in README', () => {
    const pages = DOC_PAGES.filter((page) => page.startsWith('docs/') && page !== 'docs/README.md');
    const index = readPage('docs/README.md');
    const readme = readPage('README.md');
    expect(pages.filter((page) => !index.includes(`](${page.slice(5)})`))).toEqual([]);
    expect(pages.filter((page) => !readme.includes(`](${page})`))).toEqual([]);
  });
});

describe('README', () => {
  it('reads in fifteen minutes: at most 350 lines', () => {
    expect(readPage('README.md').split('\n').length).toBeLessThanOrEqual(350);
  });

  it('has the sections a newcomer looks for, in order', () => {
    const headings = [...readPage('README.md').matchAll(/^## (.*)$/gm)].map(([, text]) => text);
    expect(headings).toEqual([
      'Install',
      'Quick start',
      'Commands',
      'In a test suite',
      'Documentation',
      'Development',
    ]);
  });

  it('shows an example of every command', () => {
    const readme = readPage('README.md');
    for (const command of [
      'serve',
      'call',
      'code',
      'check',
      'conform',
      'openapi',
      'simulate',
      'top',
    ])
      expect(readme, command).toMatch(new RegExp(`^uas ${command}\\b`, 'm'));
  });
});
