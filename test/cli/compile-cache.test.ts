import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  linkSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';

// bin/uas.js keeps the code V8 compiled (Node 22.8 and later) in the package's own
// node_modules/.cache/uas/compile; where that cannot be written, or holds garbage, uas runs the
// same without it.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HAS_COMPILE_CACHE = 'enableCompileCache' in module;
const CACHE = join('node_modules', '.cache', 'uas', 'compile');

/** A copy of the installed package (what `uas --help` reads) in a folder of its own. */
function installCopy(): string {
  const dir = join(tempDir('uas-install-'), 'uas');
  for (const part of ['package.json', 'bin', 'dist/cli'])
    cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  return dir;
}

/** Every file under `dir`, with its path. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));

/** `uas --help` from the copy at `dir`, without the environment's own compile cache settings. */
function help(dir: string, options: SpawnSyncOptions = {}, node = process.execPath) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('NODE_')),
  );
  const result = spawnSync(node, [join(dir, 'bin/uas.js'), '--help'], {
    encoding: 'utf8',
    env: { ...env, NO_COLOR: '1' },
    ...options,
  });
  if (result.error) throw result.error;
  return { code: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
}

const NOBODY = { uid: 65534, gid: 65534 };

/**
 * This Node.js binary, where nobody can run it: itself when nobody can, else a link to it (or a
 * copy) in `folder`. CI's Node 24 lives in a folder only root can enter (mktemp -d).
 */
function nodeForNobody(folder: string): string {
  const check = spawnSync(process.execPath, ['-e', '0'], NOBODY);
  if (!check.error && check.status === 0) return process.execPath;
  const node = join(folder, 'node');
  try {
    linkSync(process.execPath, node);
  } catch {
    copyFileSync(process.execPath, node);
  }
  chmodSync(node, 0o755);
  return node;
}

const expected = () => help(ROOT).stdout;

describe("uas's compile cache", () => {
  it.runIf(HAS_COMPILE_CACHE)(
    "is written in the package's node_modules/.cache/uas, and a start with it prints the same",
    () => {
      const dir = installCopy();
      const first = help(dir);
      expect(first).toEqual({ code: 0, stdout: expected(), stderr: '' });
      expect(filesUnder(join(dir, CACHE)).length).toBeGreaterThan(0);
      expect(help(dir)).toEqual(first);
    },
  );

  it.skipIf(HAS_COMPILE_CACHE)('is not written by a Node.js without one (before 22.8)', () => {
    const dir = installCopy();
    expect(help(dir)).toEqual({ code: 0, stdout: expected(), stderr: '' });
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
  });

  it('is left out, silently, where the package cannot be written', () => {
    const dir = installCopy();
    // A read-only install: as root (who may write anywhere), the package is run by nobody.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chmodSync(join(dir, '..'), 0o755);
    else chmodSync(dir, 0o555);
    try {
      const result = asRoot ? help(dir, NOBODY, nodeForNobody(join(dir, '..'))) : help(dir);
      expect(result).toEqual({ code: 0, stdout: expected(), stderr: '' });
      expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    } finally {
      chmodSync(dir, 0o755);
    }
  });

  it('is left out where its folder cannot be made (a file in its place)', () => {
    const dir = installCopy();
    writeFileSync(join(dir, 'node_modules'), 'not a folder');
    expect(help(dir)).toEqual({ code: 0, stdout: expected(), stderr: '' });
  });

  it.runIf(HAS_COMPILE_CACHE)('is ignored where it holds garbage', () => {
    const dir = installCopy();
    help(dir);
    const entries = filesUnder(join(dir, CACHE));
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) writeFileSync(entry, Buffer.alloc(4096, 0x5a));
    expect(help(dir)).toEqual({ code: 0, stdout: expected(), stderr: '' });
  });
});
