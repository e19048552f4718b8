import { describe, expect, it } from 'vitest';
import { COMMANDS, commandNamedIn } from './command-list.js';
import type { CommandContext } from './command-context.js';
import { EXIT } from './io.js';
import { createProgram } from './program.js';

/** The program `uas ...args` builds, over an I/O that keeps nothing. */
function programFor(args: string[]) {
  const context: CommandContext = {
    io: {
      stdout: { write: () => true },
      stderr: { write: () => true },
      env: {},
      cwd: '/',
      onSignal: () => () => {},
    },
    exitCode: EXIT.ok,
    argv: ['node', 'uas', ...args],
  };
  return createProgram(context);
}

describe('the list of commands', () => {
  it('lists every command in uas --help the same whether it is declared in full or by its summary', async () => {
    const summaries = (await programFor([])).helpInformation();
    for (const { name } of COMMANDS) {
      const program = await programFor([name, '--help']);
      expect(program.helpInformation(), name).toBe(summaries);
    }
  });

  it('declares in full only the command the command line names, and none for uas --help', async () => {
    const optionsOf = async (args: string[]) =>
      Object.fromEntries(
        (await programFor(args)).commands.map((command) => [
          command.name(),
          command.options.filter((option) => !option.hidden).length,
        ]),
      );
    const summaries = await optionsOf(['--help']);
    expect(Object.values(summaries).every((count) => count === 0)).toBe(true);
    const serve = await optionsOf(['serve', '--port', '0']);
    expect(serve.serve).toBeGreaterThan(10);
    expect({ ...serve, serve: 0 }).toEqual(summaries);
  });

  it('finds the command a command line runs or asks the help of, as commander does', () => {
    const named = (...args: string[]) => commandNamedIn(['node', 'uas', ...args]);
    expect(named('serve', '--port', '0')).toBe('serve');
    expect(named('help', 'call', 'flow')).toBe('call');
    expect(named('call', 'help', 'verify')).toBe('call');
    expect(named('--', 'check')).toBe('check');
    expect(named('--nope', 'top')).toBe('top');
    expect(named('-V')).toBeUndefined();
    expect(named('--help')).toBeUndefined();
    expect(named('help')).toBeUndefined();
    expect(named('help', '--help')).toBeUndefined();
    expect(named('serv')).toBeUndefined();
    expect(named()).toBeUndefined();
  });
});
