import { constants, fstatSync, openSync } from 'node:fs';
import { Socket } from 'node:net';
import type { OutputStream } from '../io.js';

/** The most of the command's output held while uas's stderr reader is slow; more is left out. */
export const PASSTHROUGH_BUFFER_BYTES = 1024 * 1024;

/** Where `uas check -- <command>` writes the command's output, and its own lines meanwhile. */
export interface CommandPassthrough {
  /** uas's own lines: written after what came before, never left out (until {@link close}). */
  readonly stream: OutputStream;
  /** The command's output, bytes as it wrote them: left out (and counted) past the bound. */
  command(chunk: Uint8Array): void;
  /**
   * Waits at most `ms` for the command's output to be written; what is still held then is left
   * out. Returns the bytes of the command's output left out in all.
   */
  settle(ms: number): Promise<number>;
  /** Waits at most `ms` for what is held to be written, then lets the rest go. */
  close(ms: number): Promise<void>;
}

/**
 * Passes the command's output to `stream` without ever blocking uas: a write to a pipe or FIFO
 * whose reader stopped reading would hold uas's event loop (the emulator, --timeout, signals).
 * A pipe or FIFO (on Linux) is opened anew, non-blocking, through /proc/self/fd (its own open
 * file description: the one uas shares with others is left as it is) and written through the
 * event loop, holding at most `maxBytes` of the command's output. Anything else (a file, a
 * terminal, a socket, an in-process stream) is written to as before.
 */
export function openPassthrough(stream: OutputStream, maxBytes: number): CommandPassthrough {
  const fd = stream.fd === undefined ? undefined : reopenPipe(stream.fd);
  if (fd === undefined)
    return {
      stream,
      command: (chunk) => void stream.write(chunk),
      settle: () => Promise.resolve(0),
      close: () => Promise.resolve(),
    };
  return socketPassthrough(new Socket({ fd, readable: false, writable: true }), maxBytes);
}

/** A new non-blocking descriptor for the pipe or FIFO at `fd`; undefined for anything else. */
function reopenPipe(fd: number): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    if (!fstatSync(fd).isFIFO()) return undefined;
    return openSync(`/proc/self/fd/${fd}`, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch {
    // No /proc, or a FIFO whose reader is gone (ENXIO): written to as before.
    return undefined;
  }
}

interface Held {
  bytes: Uint8Array;
  /** The command's output, which may be left out; uas's own lines are not. */
  droppable: boolean;
}

function socketPassthrough(socket: Socket, maxBytes: number): CommandPassthrough {
  const queue: Held[] = [];
  let held = 0;
  let writing = false;
  let broken = false;
  let leftOut = 0;
  let idle: Array<() => void> = [];
  socket.on('error', () => (broken = true));
  // One write at a time: what waits is in the queue, where it can still be left out.
  const pump = () => {
    if (writing) return;
    const next = broken ? undefined : queue.shift();
    if (next === undefined) {
      for (const done of idle.splice(0)) done();
      return;
    }
    held -= next.bytes.length;
    writing = true;
    socket.write(next.bytes, () => {
      writing = false;
      pump();
    });
  };
  const push = (bytes: Uint8Array, droppable: boolean) => {
    if (broken || (droppable && held + bytes.length > maxBytes)) {
      if (droppable) leftOut += bytes.length;
      return;
    }
    queue.push({ bytes, droppable });
    held += bytes.length;
    pump();
  };
  const drained = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
      pump();
    });
  return {
    stream: {
      write: (text) => push(typeof text === 'string' ? Buffer.from(text) : text, false),
      fd: undefined,
    },
    command: (chunk) => push(chunk, true),
    async settle(ms) {
      await drained(ms);
      const kept = queue.filter((entry) => !entry.droppable);
      for (const entry of queue) if (entry.droppable) leftOut += entry.bytes.length;
      queue.splice(0, queue.length, ...kept);
      held = kept.reduce((sum, entry) => sum + entry.bytes.length, 0);
      return leftOut;
    },
    async close(ms) {
      await drained(ms);
      idle = [];
      socket.destroy();
    },
  };
}

/** The warning for the command's output left out of uas's stderr; undefined for none. */
export function outputWarning(leftOut: number): string | undefined {
  return leftOut > 0
    ? `${leftOut} bytes of the command's output were left out of uas's stderr: its reader did not keep up (at most ${PASSTHROUGH_BUFFER_BYTES} bytes wait for it)`
    : undefined;
}
