import type { Command } from 'commander';
import type { CliIO } from './io.js';

/** What a command receives: the I/O, and where to put its exit code. */
export interface CommandContext {
  io: CliIO;
  exitCode: number;
  /** The command line as given (node, script, then the arguments). */
  argv: readonly string[];
  /** Help commander wrote for a mistake, and the command it was for: `run` words it. */
  errorHelp?: string | undefined;
  errorHelpOf?: Command | undefined;
  /** Commander's error, one line, which `run` writes once its control characters are escaped. */
  errorLine?: string | undefined;
  /**
   * stdout carries a log, not the command's result (`uas serve`): output a full disk did not take
   * then fails nothing. Otherwise `run` says it was lost, and the command does not succeed.
   */
  stdoutIsLog?: boolean;
}
