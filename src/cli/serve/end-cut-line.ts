import { appendFileSync, closeSync, openSync, readSync, statSync } from 'node:fs';
import { formatLossMarker } from '../../check/recording-loss.js';

/** The longest line `uas check --journal` reads: a longer last line is taken as cut short. */
const LINE_MAX_BYTES = 1024 * 1024;

/**
 * Ends the last line of a recording that a run before left cut short (killed mid-write, or a
 * reader that stopped at its shutdown), before lines are appended to it: they would be glued to
 * that piece, and `uas check --journal` would refuse the file. A loss line follows (one request,
 * `cut-short`, at the file's last change), as after a write that failed; a last line that is
 * whole JSON only gets its newline. A file that ends in a newline, an empty one, or anything but
 * a regular file is left alone; a file that cannot be read is left to the open that follows.
 */
export function endCutLine(path: string): void {
  let fd: number | undefined;
  try {
    const found = statSync(path);
    if (!found.isFile() || found.size === 0) return;
    fd = openSync(path, 'r');
    const length = Math.min(found.size, LINE_MAX_BYTES + 1);
    const tail = Buffer.alloc(length);
    if (readSync(fd, tail, 0, length, found.size - length) !== length) return;
    if (tail[length - 1] === 0x0a) return;
    const at = new Date(found.mtimeMs).toISOString();
    const loss = formatLossMarker({ lost: 1, from: at, to: at, reason: 'cut-short' });
    appendFileSync(path, `\n${isJson(tail.subarray(tail.lastIndexOf(0x0a) + 1)) ? '' : loss}`);
  } catch {
    return;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function isJson(line: Buffer): boolean {
  try {
    JSON.parse(line.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}
