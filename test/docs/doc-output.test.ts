import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argumentOf, blocksOf, optionsOf, where } from './doc-blocks.js';
import { keyPaths, normalizeOutput } from './doc-output.js';
import { createDocShell, serveFlagsOf, type DocShell } from './doc-shell.js';

// The output README and docs/ show (`test: output <command>`, `test: json-keys <command>`),
// compared with what the command prints now, against an emulator of its own.

let shell: DocShell;
beforeAll(() => {
  shell = createDocShell(mkdtempSync(join(tmpdir(), 'uas-docs-output-')));
}, 60_000);
afterAll(() => shell?.dispose());

describe('the output the docs show', () => {
  it.each(blocksOf('output').map((block) => [where(block), block] as const))(
    'is what the command prints: %s',
    async (_, block) => {
      const options = optionsOf(block);
      const exits = Number(
        /^exits (\d+)$/.exec(options.find((o) => o.startsWith('exits ')) ?? '')?.[1] ?? 0,
      );
      const run = await shell.run(argumentOf(block), { serveFlags: serveFlagsOf(block) });
      expect(run.code, run.stderr).toBe(exits);
      const printed = normalizeOutput(run.stdout, run.url);
      const shown = normalizeOutput(block.body, run.url);
      if (!options.includes('lines')) return expect(printed).toBe(shown);
      // `lines`: the parts between lines of `...` are printed, in that order.
      let from = 0;
      for (const part of shown.split(/^\.\.\.$/m).map((text) => text.trim())) {
        const at = printed.indexOf(part, from);
        expect(at, `${part}\nin\n${printed}`).toBeGreaterThanOrEqual(0);
        from = at + part.length;
      }
    },
    60_000,
  );

  it.each(blocksOf('json-keys').map((block) => [where(block), block] as const))(
    'has the keys of what the command prints: %s',
    async (_, block) => {
      const run = await shell.run(argumentOf(block), { serveFlags: serveFlagsOf(block) });
      expect(run.code, run.stderr).toBe(0);
      expect(keyPaths(JSON.parse(block.body))).toEqual(keyPaths(JSON.parse(run.stdout)));
    },
    60_000,
  );
});
