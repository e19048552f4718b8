import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8').trimEnd();
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The import statements from `uas` and its subpaths of each TypeScript or JavaScript block of
 * README, one source per block (two blocks may import the same name).
 */
function readmeImports(readme: string): Map<string, string> {
  const sources = new Map<string, string>();
  const blocks = [...readme.matchAll(/^```(?:ts|tsx|js|mjs)\n([\s\S]*?)^```/gm)];
  blocks.forEach(([, code = ''], index) => {
    const imports = [...code.matchAll(/^import\s[^;]*?\sfrom\s+'uas(?:\/[\w-]+)?';$/gm)];
    if (imports.length > 0)
      sources.set(
        join(ROOT, `readme-block-${index}.ts`),
        `${imports.map(([statement]) => statement).join('\n')}\nexport {};\n`,
      );
  });
  return sources;
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

describe('the recipes of README', () => {
  it.each([
    'vitest-msw/sign-in.test.ts',
    'playwright/uas-fixture.ts',
    'playwright/playwright.config.ts',
    'playwright/tests/sign-in.spec.ts',
    'express/app.mjs',
  ])('shows %s as it is in test/recipes', (file) => {
    expect(read('../../README.md')).toContain(read(file));
  });

  it('imports from uas, in every code block, only what its entry points export', () => {
    const sources = readmeImports(read('../../README.md'));
    expect(sources.size).toBeGreaterThanOrEqual(5);
    const options: ts.CompilerOptions = {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
      paths: entryPoints(),
    };
    const host = ts.createCompilerHost(options);
    const { getSourceFile, fileExists, readFile } = host;
    host.fileExists = (file) => sources.has(file) || fileExists(file);
    host.readFile = (file) => sources.get(file) ?? readFile(file);
    host.getSourceFile = (file, language, ...rest) => {
      const text = sources.get(file);
      return text === undefined
        ? getSourceFile(file, language, ...rest)
        : ts.createSourceFile(file, text, language);
    };
    const program = ts.createProgram([...sources.keys()], options, host);
    const problems = [...sources.keys()].flatMap((file) =>
      ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((diagnostic) => {
        const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
        const line =
          diagnostic.file?.text.split('\n')[
            diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line
          ];
        return `${line}: ${text}`;
      }),
    );
    expect(problems).toEqual([]);
  });
});
