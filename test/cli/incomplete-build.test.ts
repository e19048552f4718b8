import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let copy: string | undefined;

/** A copy of the built package (bin/, dist/, package.json) whose node_modules is the clone's. */
function copyOfTheBuild(): string {
  copy = mkdtempSync(join(tmpdir(), 'uas-incomplete-'));
  for (const part of ['bin', 'dist', 'package.json'])
    cpSync(join(ROOT, part), join(copy, part), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  return copy;
}

function uas(root: string, args: string[]) {
  return spawnSync(process.execPath, [join(root, 'bin', 'uas.js'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', NODE_DISABLE_COMPILE_CACHE: '1' },
  });
}

afterEach(() => {
  if (copy !== undefined) rmSync(copy, { recursive: true, force: true });
  copy = undefined;
});

// A dist/ with a file missing (a build stopped half-way, a file deleted): one line that says so and
// what to do, exit 2, never a stack trace.
describe('an incomplete build', () => {
  it('names the missing module of a command', () => {
    const root = copyOfTheBuild();
    rmSync(join(root, 'dist', 'cli', 'doctor.js'));
    const result = uas(root, ['doctor']);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `uas: this copy of uas is incomplete (${join(root, 'dist', 'cli', 'doctor.js')} is missing): install it again, or run \`npm run build\` in its clone\n`,
    );
    expect(result.status).toBe(2);
  });

  it('says a missing build is missing, with npm install first in a clone without its dependencies', () => {
    const root = copyOfTheBuild();
    rmSync(join(root, 'dist'), { recursive: true });
    const built = uas(root, ['--help']);
    expect(built.stderr).toBe('uas: the build is missing (dist/); run `npm run build` first\n');
    expect(built.status).toBe(2);
    rmSync(join(root, 'node_modules'));
    const fresh = uas(root, ['serve']);
    expect(fresh.stderr).toBe(
      'uas: the build is missing (dist/); run `npm install && npm run build` first\n',
    );
    expect(fresh.status).toBe(2);
  });

  it('says a damaged start is damaged', () => {
    const root = copyOfTheBuild();
    writeFileSync(join(root, 'dist', 'cli', 'start.cjs'), 'exports.run = (');
    const result = uas(root, ['-V']);
    expect(result.stderr).toMatch(
      /^uas: this copy of uas is damaged \(.*start\.cjs: SyntaxError: .*\): install it again, or run `npm run build` in its clone\n$/,
    );
    expect(result.status).toBe(2);
    writeFileSync(join(root, 'dist', 'cli', 'start.cjs'), '');
    const empty = uas(root, ['-V']);
    expect(empty.stderr).toMatch(
      /^uas: this copy of uas is damaged \(.*start\.cjs: TypeError: it exports no run function\)/,
    );
    expect(empty.status).toBe(2);
  });
});
