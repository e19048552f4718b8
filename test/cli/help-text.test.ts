import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UAS_BIN } from '../helpers/spawn-uas.js';
import { tempDir } from '../helpers/temp-dir.js';

// What the built CLI prints for help, the version and a mistyped command, byte for byte: how
// the program is declared and loaded may change (for a faster start); what it prints may not.
// Each case is a file under test/cli/help/ (`npx vitest run test/cli/help-text.test.ts -u`
// rewrites them, for a change of the text that is meant).
const CASES: string[][] = [
  [],
  ['--help'],
  ['-h'],
  ['help'],
  ['-V'],
  ['--version'],
  ['serve', '--help'],
  ['call', '--help'],
  ['call', 'exists', '--help'],
  ['call', 'start', '--help'],
  ['call', 'verify', '--help'],
  ['call', 'flow', '--help'],
  ['code', '--help'],
  ['check', '--help'],
  ['simulate', '--help'],
  ['top', '--help'],
  ['openapi', '--help'],
  ['conform', '--help'],
  ['doctor', '--help'],
  ['help', 'serve'],
  ['help', 'call'],
  ['help', 'call', 'flow'],
  ['call', 'help', 'verify'],
  ['call'],
  ['serv'],
  ['nope'],
  ['help', 'launch'],
  ['--nope'],
];

/** The environment of a user who set none of uas's variables, output to a pipe (80 columns). */
function plainEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(UAS_|NO_COLOR|FORCE_COLOR|COLUMNS|NODE_OPTIONS)/.test(name),
    ),
  );
  return { ...env, NO_COLOR: '1' };
}

/** Runs `uas ...args` and renders its exit code and output as one text. */
function transcript(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [UAS_BIN, ...args], {
      env: plainEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve(
        `$ uas ${args.join(' ')}\n[exit ${code}]\n[stdout]\n${stdout}[stderr]\n${stderr}[end]\n`,
      ),
    );
  });
}

const fileOf = (args: string[]) =>
  `./help/uas${args.map((arg) => `_${arg.replace(/^-+/, (dashes) => '~'.repeat(dashes.length))}`).join('')}.txt`;

describe('the help of the built CLI', () => {
  it.each(CASES.map((args) => [args.join(' ') || '(no arguments)', args] as const))(
    'prints the same text for uas %s',
    async (_name, args) => {
      await expect(await transcript(args)).toMatchFileSnapshot(fileOf(args));
    },
  );
});

describe('where the help goes', () => {
  const expected = () => transcript(['--help']).then((text) => text.split('[stdout]\n')[1]!);

  it('writes the same help to a file as to a pipe', async () => {
    const file = join(tempDir('uas-help-'), 'help.txt');
    const fd = openSync(file, 'w');
    try {
      const result = spawnSync(process.execPath, [UAS_BIN, '--help'], {
        env: plainEnv(),
        stdio: ['ignore', fd, 'pipe'],
        encoding: 'utf8',
      });
      expect([result.status, result.stderr]).toEqual([0, '']);
    } finally {
      closeSync(fd);
    }
    expect(`${readFileSync(file, 'utf8')}[stderr]\n[end]\n`).toBe(await expected());
  });

  it('exits 0, silently, when the reader of its pipe has gone', async () => {
    const child = spawn(process.execPath, [UAS_BIN, 'serve', '--help'], {
      env: plainEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect([code, stderr]).toEqual([0, '']);
  });

  it.each([['--help'], ['-V'], ['openapi'], ['simulate', '--preset', 'user-enumeration']])(
    'says the output was lost and exits 1 when stdout is a full disk: uas %s',
    (...args) => {
      const full = openSync('/dev/full', 'w');
      try {
        const result = spawnSync(process.execPath, [UAS_BIN, ...args], {
          env: plainEnv(),
          stdio: ['ignore', full, 'pipe'],
          encoding: 'utf8',
        });
        // The last line of stderr (simulate says how fast it ran before).
        expect([result.status, result.stderr.split('\n').at(-2)]).toEqual([
          1,
          'uas: the output could not all be written to stdout (ENOSPC: no space left on device, write)',
        ]);
      } finally {
        closeSync(full);
      }
    },
  );

  it('wraps the help at the width of a terminal', () => {
    // `script` gives the command a pseudo-terminal of the size stty sets.
    const result = spawnSync(
      'script',
      ['-qec', `stty cols 120; ${process.execPath} ${UAS_BIN} --help`, '/dev/null'],
      { env: plainEnv(), encoding: 'utf8' },
    );
    if (result.error) throw result.error;
    const lines = result.stdout.split(/\r?\n/);
    expect(lines[0]).toBe('Usage: uas [options] [command]');
    // Wider than the 80 columns of a pipe, no wider than the terminal.
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(120);
    expect(lines.some((line) => line.length > 80)).toBe(true);
  });
});
