import { fileErrorReason } from './file-error.js';
import { CliError, EXIT } from './io.js';

/**
 * The one-line error (exit 2) for a `--record` path that cannot be opened: a FIFO nobody reads
 * (ENXIO, as a FIFO opened without waiting for its reader fails) says how to start its reader.
 */
export function recordOpenError(path: string, error: unknown): CliError {
  const code = (error as NodeJS.ErrnoException).code;
  return new CliError(
    code === 'ENXIO'
      ? `cannot open --record ${path}: it is a FIFO that nobody reads; start its reader first (cat ${path} > sent.ndjson &), or give a file`
      : `cannot open --record ${path}: ${fileErrorReason(error)}`,
    EXIT.usage,
  );
}

/**
 * Refuses a `--record` value that names no file to record to: an empty one (resolved, it would
 * be the current folder), and `-`, the standard input of `--journal`, which here would be a file
 * of that name.
 */
export function refuseRecordName(file: string): void {
  if (file === '') throw new CliError('--record is empty; give the file to record to', EXIT.usage);
  if (file === '-')
    throw new CliError(
      '--record - would write a file named "-"; give the path of the file to record to',
      EXIT.usage,
    );
}
