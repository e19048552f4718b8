import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { allBlocks, ROOT, where, type DocBlock } from '../docs/doc-blocks.js';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8').trimEnd();
const CODE = new Set(['ts', 'tsx', 'js', 'mjs']);

/** The TypeScript and JavaScript blocks of README and docs/. */
const codeBlocks = allBlocks().filter((block) => CODE.has(block.lang));

/**
 * Whether a block is compiled whole: not a copy of a file or a piece of one (`file`, `excerpt`:
 * the file itself is compiled by `npm run typecheck` or run by a test), nor an illustration.
 */
const compiledWhole = (block: DocBlock): boolean =>
  block.marker?.kind === 'test' && !['file', 'excerpt'].includes(block.marker.runner);

/** A name for a block's source, beside package.json so that its imports resolve from here. */
const fileOf = (block: DocBlock, suffix: string): string =>
  join(
    ROOT,
    `docs-block-${block.page.replace(/\W/g, '-')}-${block.line}${suffix}.${block.lang.startsWith('ts') ? 'ts' : 'mjs'}`,
  );

/**
 * Each block compiled whole, and the import statements from `uas` and its subpaths of every
 * block (a piece of a file included), one source each.
 */
function sources(): Map<string, string> {
  const files = new Map<string, string>();
  for (const block of codeBlocks) {
    if (compiledWhole(block)) files.set(fileOf(block, ''), block.body);
    const imports = [...block.body.matchAll(/^import\s[^;]*?\sfrom\s+'uas(?:\/[\w-]+)?';$/gm)];
    if (imports.length > 0)
      files.set(
        fileOf(block, '-imports').replace(/\.mjs$/, '.ts'),
        `${imports.map(([statement]) => statement).join('\n')}\nexport {};\n`,
      );
  }
  return files;
}

/** `uas`, `uas/msw`, ... mapped to the source of their entry points, from the exports map. */
function entryPoints(): Record<string, string[]> {
  const manifest = JSON.parse(read('../../package.json')) as {
    exports: Record<string, string | { types: string }>;
  };
  const paths: Record<string, string[]> = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') continue;
    const source = target.types.replace(/^\.\/dist\//, './src/').replace(/\.d\.ts$/, '.ts');
    paths[subpath.replace(/^\./, 'uas')] = [join(ROOT, source)];
  }
  return paths;
}

/** The problems TypeScript finds in the sources, each with the line it is on. */
function typeProblems(files: Map<string, string>): string[] {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    allowJs: true,
    checkJs: true,
    types: ['node'],
    paths: entryPoints(),
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (file) => files.has(file) || fileExists(file);
  host.readFile = (file) => files.get(file) ?? readFile(file);
  host.getSourceFile = (file, language, ...rest) => {
    const text = files.get(file);
    return text === undefined
      ? getSourceFile(file, language, ...rest)
      : ts.createSourceFile(file, text, language);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  return [...files.keys()].flatMap((file) =>
    ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((diagnostic) => {
      const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
      const line =
        diagnostic.file?.text.split('\n')[
          diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line
        ];
      return `${file.slice(ROOT.length)}: ${line}: ${text}`;
    }),
  );
}

describe('the recipes of docs/testing.md', () => {
  it.each([
    'vitest-msw/sign-in.test.ts',
    'playwright/uas-fixture.ts',
    'playwright/playwright.config.ts',
    'playwright/tests/sign-in.spec.ts',
    'express/app.mjs',
  ])('shows %s as it is in test/recipes', (file) => {
    expect(read('../../docs/testing.md')).toContain(read(file));
  });
});

describe('the code of README and docs/', () => {
  it('compiles against the entry points: each block whole, and the imports of every block', () => {
    const files = sources();
    expect(codeBlocks.filter(compiledWhole).map(where).length).toBeGreaterThanOrEqual(2);
    expect(files.size).toBeGreaterThanOrEqual(8);
    expect(typeProblems(files)).toEqual([]);
  }, 60_000);
});
