import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError, EXIT } from './io.js';

/** Words for the errors a file to write can meet, after their code. */
const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of its path is not a folder',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  ENAMETOOLONG: 'the name is too long',
};

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Why a file could not be opened or written, for a one-line error: the code and, for the common
 * ones, what it means (`ENOENT: its folder does not exist`); the message when there is no code.
 */
export function fileErrorReason(error: unknown): string {
  const code = codeOf(error);
  if (code === undefined) return messageOf(error);
  const words = REASONS[code];
  return words === undefined ? code : `${code}: ${words}`;
}

/** Why a file could not be read, in a few words ("no such file", "permission denied"). */
export function describeFsError(error: unknown): string {
  const code = codeOf(error);
  if (code === 'ENOENT') return 'no such file';
  return code === 'EACCES' || code === 'EISDIR' ? (REASONS[code] as string) : messageOf(error);
}

/**
 * Refuses at once, before any work, a report path (`--junit`, `--markdown`, `--html`) that could
 * not be written when the work is done: a directory, a folder that does not exist, a file or
 * folder not writable. The file itself is neither made nor touched.
 */
export function checkReportPath(file: string | undefined, flag: string, cwd: string): void {
  if (file === undefined) return;
  // An empty one would be the current folder, and `-` a file of that name, not stdout.
  if (file === '') throw new CliError(`${flag} is empty; give the file to write`, EXIT.usage);
  if (file === '-')
    throw new CliError(
      `${flag} - would write a file named "-", not stdout; give the path of the file to write`,
      EXIT.usage,
    );
  const path = resolve(cwd, file);
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory() === true)
      throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    accessSync(stat === undefined ? dirname(path) : path, constants.W_OK);
  } catch (error) {
    throw new CliError(`cannot write ${flag} ${path}: ${fileErrorReason(error)}`, EXIT.usage);
  }
}
