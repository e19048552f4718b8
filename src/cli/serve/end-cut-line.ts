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
 * a regular file is left alone. A file that may be written but not read (mode 200) gets a newline
 * in any case: a blank line, which a reader skips, if its last line was whole. Any other failure
 * is left to the open that follows. `openToRead` is `fs.openSync(path, 'r')`, or a test's.
 */
export function endCutLine(
  path: string,
  openToRead: (path: string) => number = (file) => openSync(file, 'r'),
): void {
  let fd: number | undefined;
  try {
    const found = statSync(path);
    if (!found.isFile() || found.size === 0) return;
    try {
      fd = openToRead(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM') appendFileSync(path, '\n');
      return;
    }
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
