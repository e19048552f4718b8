import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTmux, hasTmux, needsTmux } from '../tui/tmux.js';
import { eventually } from '../helpers/eventually.js';
import { blocksOf, where } from './doc-blocks.js';
import { createDocShell, serveFlagsOf, substitute, type DocShell } from './doc-shell.js';

// The examples of the terminal UI (`test: terminal`), each line run in a terminal of its own
// (tmux) against an emulator: a live screen must draw its footer and stop on `q`, a snapshot
// must print and end, and either must exit 0.

let shell: DocShell;
beforeAll(() => {
  shell = createDocShell(mkdtempSync(join(tmpdir(), 'uas-docs-terminal-')));
}, 60_000);
afterAll(() => shell?.dispose());

/** The commands of a block: one a line, comments and blank lines left out. */
const commandsOf = (body: string): string[] =>
  body
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

const blocks = blocksOf('terminal');

describe('the terminal UI examples', () => {
  it('are there to run', () => {
    expect(blocks.length).toBeGreaterThan(0);
  });

  it
    .skipIf(!hasTmux)
    .each(
      blocks.flatMap((block) =>
        commandsOf(block.body).map((command) => [where(block), command, block] as const),
      ),
    )(
    needsTmux('%s: `%s` draws, stops on q and exits 0'),
    async (_, command, block) => {
      await shell.withEmulator(serveFlagsOf(block), async (url, env) => {
        const tmux = createTmux('docs');
        const exitFile = join(shell.dir, `.exit-${Date.now()}`);
        const line = substitute(command, url).replace(/^uas serve\b/, 'uas serve --port 0');
        const exports = ['PATH', 'UAS_URL', 'NO_COLOR']
          .map((name) => `${name}=${JSON.stringify(env[name] ?? '')}`)
          .join(' ')
          // As in CI, where CI=true is set: a live screen must draw there too.
          .concat(' CI=true');
        try {
          tmux.start(
            // Written whole, then moved into place: the file never shows up empty.
            `cd ${JSON.stringify(shell.dir)} && env ${exports} ${line}; echo $? > ${exitFile}.part && mv ${exitFile}.part ${exitFile}`,
            100,
            30,
          );
          // The window ends with its command, and its screen with it.
          const screen = () => {
            try {
              return tmux.screen();
            } catch {
              return '';
            }
          };
          await eventually(() => existsSync(exitFile) || screen().includes('q quit'), 15_000);
          const drawn = screen();
          if (!existsSync(exitFile)) tmux.keys('q');
          await eventually(() => existsSync(exitFile), 10_000);
          expect(readFileSync(exitFile, 'utf8').trim(), drawn).toBe('0');
        } finally {
          tmux.dispose();
          rmSync(exitFile, { force: true });
          rmSync(`${exitFile}.part`, { force: true });
        }
      });
    },
    60_000,
  );
});
