import type { Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { declareCommand } from '../command-list.js';
import type { CodeFlags } from '../code/run-code.js';
import { addEmulatorOptions } from '../options.js';

/** Registers `uas code <email>`. */
export function registerCode(program: Command, context: CommandContext): void {
  addEmulatorOptions(declareCommand(program, 'code'))
    .option('--merchant <id>', 'the merchant the code was issued at (default: any, the latest)')
    .option('--json', 'print the code with its merchant, expiry, attempts left and use')
    .addHelpText(
      'after',
      `
Prints only the digits, so a script can take them: CODE=$(uas code alice@example.com)
The latest code, even one used, expired or out of attempts: --json says which.
Exit codes: 0 printed, 1 no code was issued (or the dev API refused the call),
2 usage (or the admin token is missing or refused), 4 the emulator could not be reached.`,
    )
    .action(async (email: string, flags: CodeFlags) => {
      const { runCode } = await import('../code/run-code.js');
      await runCode(email, flags, context.io);
    });
}
