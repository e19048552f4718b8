import {
  close,
  constants,
  fstat,
  fstatSync,
  open,
  openSync,
  statSync,
  write,
  type Stats,
} from 'node:fs';
import { stat } from 'node:fs/promises';
import { Socket } from 'node:net';
import type { RecordSink } from './record-writer.js';

/** A sink over an open file or pipe, as `uas serve --record` writes to it. */
export interface OpenedSink extends RecordSink {
  /**
   * `file`: written through the thread pool (a file, a device); `pipe`: a FIFO or socket,
   * written without ever waiting on its reader (a write to a pipe nobody reads would hold a
   * thread, and the process at exit, for good).
   */
  readonly kind: 'file' | 'pipe';
  /** Whether a pipe failed for good (its reader went away): only reopening helps. */
  readonly broken: boolean;
  /** Where the path now leads, compared with what this sink has open. */
  placeOf(path: string): Promise<'same' | 'moved' | 'deleted'>;
}

/**
 * Opens `path` for appending (or emptied first), at start, without waiting: a FIFO nobody reads is ENXIO at once
 * (waiting for its reader would hold the start, and --port's errors, before a signal could stop
 * uas). Throws what `open` throws.
 */
export function openSinkSync(path: string, mode: 'append' | 'truncate' = 'append'): OpenedSink {
  const fifo = (() => {
    try {
      return statSync(path).isFIFO();
    } catch {
      return false;
    }
  })();
  const fd = fifo
    ? openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NONBLOCK)
    : openSync(path, mode === 'append' ? 'a' : 'w');
  return sinkOver(fd);
}

/**
 * Opens `path` again (it was moved, deleted, or its reader went away), without waiting: a FIFO
 * nobody reads is ENXIO. Rejects with what `open` rejects with.
 */
export async function reopenSink(path: string): Promise<OpenedSink> {
  const fifo = await stat(path).then(
    (found) => found.isFIFO(),
    () => false,
  );
  const flags = fifo
    ? constants.O_WRONLY | constants.O_APPEND | constants.O_NONBLOCK
    : constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT;
  // A number, not a FileHandle: a handle would close the descriptor when collected.
  const fd = await new Promise<number>((resolve, reject) =>
    open(path, flags, 0o666, (error, opened) => (error === null ? resolve(opened) : reject(error))),
  );
  return sinkOver(fd);
}

function sinkOver(fd: number): OpenedSink {
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } catch (error) {
    close(fd, () => {});
    throw error;
  }
  const placeOf = (path: string) => placeOfFd(path, fd, stats);
  return stats.isFIFO() || stats.isSocket() ? pipeSink(fd, placeOf) : fileSink(fd, placeOf);
}

/** Writes through the thread pool, all of each text (a short write is continued). */
function fileSink(fd: number, placeOf: OpenedSink['placeOf']): OpenedSink {
  let writing = false;
  let closing = false;
  const closeNow = () => close(fd, () => {});
  return {
    kind: 'file',
    broken: false,
    placeOf,
    write(text, done) {
      const buffer = Buffer.from(text);
      let offset = 0;
      writing = true;
      const finish = (error: NodeJS.ErrnoException | null) => {
        writing = false;
        // Closed only once no write uses the descriptor: its number could be reused meanwhile.
        if (closing) closeNow();
        done(error, offset);
      };
      const next = () =>
        write(fd, buffer, offset, buffer.length - offset, null, (error, count) => {
          if (error !== null) return finish(error);
          offset += count;
          if (offset < buffer.length) next();
          else finish(null);
        });
      next();
    },
    close() {
      if (closing) return;
      closing = true;
      if (!writing) closeNow();
    },
  };
}

/** Writes through the event loop: a reader that stops reading holds memory (bounded), not a thread. */
function pipeSink(fd: number, placeOf: OpenedSink['placeOf']): OpenedSink {
  const socket = new Socket({ fd, readable: false, writable: true });
  let failure: NodeJS.ErrnoException | undefined;
  socket.on('error', (error: NodeJS.ErrnoException) => (failure ??= error));
  return {
    kind: 'pipe',
    get broken() {
      return failure !== undefined || socket.destroyed;
    },
    placeOf,
    write(text, done) {
      if (failure !== undefined || socket.destroyed) {
        const error = failure ?? Object.assign(new Error('the pipe is closed'), { code: 'EPIPE' });
        return void queueMicrotask(() => done(error, 0));
      }
      socket.write(text, (error) => {
        if (error) failure ??= error as NodeJS.ErrnoException;
        done(error ? (error as NodeJS.ErrnoException) : null, error ? 0 : Buffer.byteLength(text));
      });
    },
    close() {
      socket.destroy();
    },
  };
}

async function placeOfFd(
  path: string,
  fd: number,
  opened: Stats,
): Promise<'same' | 'moved' | 'deleted'> {
  const now = await stat(path).catch(() => undefined);
  if (now !== undefined && now.dev === opened.dev && now.ino === opened.ino) return 'same';
  const own = await new Promise<Stats | undefined>((resolve) =>
    fstat(fd, (error, found) => resolve(error === null ? found : undefined)),
  );
  return own === undefined || own.nlink === 0 ? 'deleted' : 'moved';
}
