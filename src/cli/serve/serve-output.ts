import type { ChalkInstance } from 'chalk';
import { type CliIO } from '../io.js';
import { colorsFor } from '../colors-for.js';
import type { LogMode } from '../request-log.js';
import { blockedPortWarning } from '../../http/blocked-ports.js';

/** Where `uas serve` says things about itself, in the format of its log. */
export interface ServeOutput {
  io: CliIO;
  chalk: ChalkInstance;
  /** A line on stdout. */
  write(line: string): void;
  /**
   * A line about the server itself (the store went away, a worker restarted): in the log's
   * format on stdout, or on stderr when the request log is off.
   */
  note(state: string, message: string): void;
}

/** The output of `uas serve` for the request log `log`. */
export function serveOutput(log: LogMode, io: CliIO): ServeOutput {
  const chalk = colorsFor(io.stdout, io.env);
  return {
    io,
    chalk,
    write: (line) => io.stdout.write(`${line}\n`),
    note(state, message) {
      if (log === 'json') io.stdout.write(`${JSON.stringify({ type: 'note', state, message })}\n`);
      else if (log === 'pretty')
        io.stdout.write(`${state === 'up' ? chalk.green(message) : chalk.yellow(message)}\n`);
      else io.stderr.write(`uas: ${message}\n`);
    },
  };
}

/** Warns, after the banner, of a port that browsers and fetch clients refuse to connect to. */
export function warnBlockedPort(url: string, out: ServeOutput): void {
  const warning = blockedPortWarning(url);
  if (warning !== undefined) out.note('warning', warning);
}
