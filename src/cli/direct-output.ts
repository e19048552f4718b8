import type { OutputStream } from './io.js';

/** `rdev` of /dev/null on Linux (major 1, minor 3): a character device, yet no terminal. */
const LINUX_DEV_NULL = (1 << 8) | 3;

/**
 * The process's descriptor `fd` written to directly (`writeSync`) when it is a file, a pipe or
 * /dev/null, or undefined when it may be a terminal (or cannot be told): then Node's own stream
 * serves. Making `process.stdout` costs a few milliseconds of every start (a pipe loads the net
 * module), which `uas --help` and `uas -V` in a script need not pay. A reader that went away
 * (EPIPE) or a full disk loses the output, not the program (`failed` hears why); a descriptor that
 * would block (EAGAIN) gets the rest through Node's stream.
 */
export function directOutput(
  fd: 1 | 2,
  stream: () => NodeJS.WriteStream,
  failed: (error: NodeJS.ErrnoException) => void = () => {},
): OutputStream | undefined {
  const { fstatSync, writeSync } = process.getBuiltinModule('node:fs');
  let plain: boolean;
  try {
    const stat = fstatSync(fd);
    plain =
      stat.isFile() ||
      stat.isFIFO() ||
      (process.platform === 'linux' && stat.isCharacterDevice() && stat.rdev === LINUX_DEV_NULL);
  } catch {
    return undefined;
  }
  if (!plain) return undefined;
  let broken = false;
  return {
    write(text) {
      if (broken) return false;
      const bytes = typeof text === 'string' ? Buffer.from(text) : text;
      for (let offset = 0; offset < bytes.byteLength;) {
        try {
          offset += writeSync(fd, bytes, offset);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EAGAIN')
            return stream().write(bytes.subarray(offset));
          broken = true;
          failed(error as NodeJS.ErrnoException);
          return false;
        }
      }
      return true;
    },
    isTTY: false,
    fd,
  };
}
