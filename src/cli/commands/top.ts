import type { Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { declareCommand } from '../command-list.js';
import { addEmulatorOptions } from '../options.js';
import type { TopFlags } from '../top/run-top.js';

/** Registers `uas top`. */
export function registerTop(program: Command, context: CommandContext): void {
  addEmulatorOptions(declareCommand(program, 'top'))
    .option(
      '--once',
      'print one snapshot instead of the live screen (the default without a terminal)',
    )
    .option('--json', 'with a snapshot: print it as JSON')
    .addHelpText(
      'after',
      '\nKeys: q quit, ↑↓ select, r reset the selected bucket, R reset all, p pause, / filter, s sort, ? help.',
    )
    .action(async (flags: TopFlags) => {
      const { runTop } = await import('../top/run-top.js');
      await runTop(flags, context);
    });
}
