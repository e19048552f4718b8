import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

type Tree = Record<string, string>;

/** The trees made, removed after the tests. */
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Runs the project's layer rules on a small tree of modules; its exit code and what it printed. */
async function cruise(tree: Tree): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'uas-layers-'));
  made.push(dir);
  const files: Tree = {
    'tsconfig.json': JSON.stringify({
      compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true },
    }),
    ...tree,
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', 'err'],
      { cwd: dir },
    );
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/** A module importing each of `targets` (paths from src/, without `.ts`) and exporting `value`. */
function importing(from: string, ...targets: string[]): string {
  const depth = from.split('/').length - 1;
  const up = '../'.repeat(depth);
  const lines = targets.map(
    (target, index) => `import { value as v${index} } from '${up}${target}.js';`,
  );
  return `${lines.join('\n')}\nexport const value = [${targets.map((_, i) => `v${i}`).join(', ')}];\n`;
}

const LEAF = 'export const value = 1;\n';

/** Imports that all go down the layers. */
const CLEAN: Tree = {
  'src/cli/program.ts': importing('cli/program', 'client/client', 'core/service/answer'),
  'src/client/client.ts': importing('client/client', 'http/send', 'core/service/answer'),
  'src/http/send.ts': LEAF,
  'src/core/service/answer.ts': importing('core/service/answer', 'core/limits/bucket'),
  'src/core/limits/bucket.ts': LEAF,
};

/** One planted mistake of each kind, in folders of their own. */
const PLANTED: Tree = {
  // a lower folder importing an upper one
  'src/cli/io.ts': LEAF,
  'src/text/escape.ts': importing('text/escape', 'cli/io'),
  // the core importing outside itself, even a lower file
  'src/version.ts': LEAF,
  'src/core/time/clock.ts': importing('core/time/clock', 'version'),
  // an upward import between the core's layers
  'src/core/admin/admin.ts': LEAF,
  'src/core/limits/bucket.ts': importing('core/limits/bucket', 'core/admin/admin'),
  // two folders of one layer importing each other, with no module cycle
  'src/adapters/http/engine.ts': importing('adapters/http/engine', 'adapters/msw/types'),
  'src/adapters/http/types.ts': LEAF,
  'src/adapters/msw/handlers.ts': importing('adapters/msw/handlers', 'adapters/http/types'),
  'src/adapters/msw/types.ts': LEAF,
  // two modules of one folder importing each other at run time
  'src/runtime/a.ts': importing('runtime/a', 'runtime/b'),
  'src/runtime/b.ts': importing('runtime/b', 'runtime/a'),
  // a cycle of type imports alone, erased at run time: allowed
  'src/http/a.ts': "import type { B } from './b.js';\nexport type A = { b?: B };\n",
  'src/http/b.ts': "import type { A } from './a.js';\nexport type B = { a?: A };\n",
};

/** The violations printed, one string each (a cycle's lines joined). */
function violations(output: string): string[] {
  return output
    .replace(/\n\s*x \d+ dependency violations[^]*$/, '')
    .split(/\n(?=\s*error )/)
    .map((text) => text.replace(/\s+/g, ' ').trim())
    .filter((text) => text.startsWith('error '));
}

describe('the layer rules (npm run lint:layers)', () => {
  let clean: { code: number; output: string };
  let planted: { code: number; output: string };
  let found: string[];
  beforeAll(async () => {
    [clean, planted] = await Promise.all([cruise(CLEAN), cruise(PLANTED)]);
    found = violations(planted.output);
  }, 120_000);

  it('pass a tree whose imports all go down the layers', () => {
    expect(clean.output).toContain('no dependency violations');
    expect(clean.code).toBe(0);
  });

  it('fail on a tree with planted mistakes', () => {
    expect(planted.code).not.toBe(0);
  });

  it('name a lower folder that imports an upper one', () => {
    expect(found).toContain(
      'error layers: text imports no layer above it: src/text/escape.ts → src/cli/io.ts',
    );
  });

  it('name the core importing anything outside src/core, even a lower folder', () => {
    expect(found).toContain(
      'error core imports nothing outside src/core: src/core/time/clock.ts → src/version.ts',
    );
  });

  it('name an upward import between the layers of the core', () => {
    expect(found).toContain(
      'error core layers: core limits imports no layer above it: src/core/limits/bucket.ts → src/core/admin/admin.ts',
    );
  });

  it('name two folders of one layer that import each other, though no module cycle', () => {
    const cycles = found.filter((text) => text.includes('src/adapters/'));
    expect(cycles.length).toBeGreaterThan(0);
    for (const cycle of cycles) expect(cycle).toMatch(/^error no cycle between folders: /);
  });

  it('name modules of one folder that import each other at run time', () => {
    expect(found).toContainEqual(
      expect.stringMatching(/^error no cycle between modules at run time: src\/runtime\/a\.ts → /),
    );
  });

  it('let a cycle of type imports alone be, as it is erased at run time', () => {
    expect(found.filter((text) => text.includes('src/http/'))).toEqual([]);
  });
});
