import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { UAS_BIN } from '../helpers/spawn-uas.js';

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
