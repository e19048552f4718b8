import type { Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { declareCommand } from '../command-list.js';
import { DEFAULT_PORT } from '../defaults.js';
import { integerIn } from '../options.js';
import type { DoctorFlags } from '../doctor/doctor-flags.js';

/** Registers `uas doctor`. */
export function registerDoctor(program: Command, context: CommandContext): void {
  declareCommand(program, 'doctor')
    .option('-p, --port <port>', 'the port uas serve would take', integerIn(1, 65535), DEFAULT_PORT)
    .option('--json', 'print what it found as JSON')
    .addHelpText(
      'after',
      `
Prints the versions of uas and Node.js (and of ink, React, msw and ioredis when installed),
whether the port is free or a uas emulator answers there, and each optional piece that is
missing with the one command that installs it.
Exit codes: 0 all is well (optional pieces may be missing), 1 a problem was found (Node.js too
old, or the port taken by something that is not a uas emulator).`,
    )
    .action(async (flags: DoctorFlags) => {
      const { runDoctor } = await import('../doctor/run-doctor.js');
      context.exitCode = await runDoctor(flags, context.io);
    });
}
