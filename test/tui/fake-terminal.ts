import { EventEmitter } from 'node:events';
import type { TuiStreams } from '../../src/tui/run-tui.js';

/** A terminal whose size the test sets, as a real one changes on resize; it keeps every frame. */
export class FakeTerminal extends EventEmitter {
  columns = 80;
  rows = 24;
  frames: string[] = [];
  isTTY = true;
  write = (frame: string) => {
    this.frames.push(frame);
    return true;
  };
  resize(columns: number, rows: number) {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}

/** Keys typed in a terminal, as ink reads them (raw mode, `readable`, `read()`). */
export class FakeInput extends EventEmitter {
  isTTY = true;
  private pending: string[] = [];
  /** Types `keys`, as one chunk. */
  type(keys: string) {
    this.pending.push(keys);
    this.emit('readable');
  }
  /** Whether a screen reads keys (ink listens once raw mode is on). */
  get listening() {
    return this.listenerCount('readable') > 0;
  }
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read = () => this.pending.shift() ?? null;
}

/** The streams of a screen drawn on `terminal`, with keys from `input`. */
export function fakeStreams(terminal: FakeTerminal, input: FakeInput): TuiStreams {
  return {
    stdout: terminal as unknown as NodeJS.WriteStream,
    stdin: input as unknown as NodeJS.ReadStream,
    stderr: terminal as unknown as NodeJS.WriteStream,
  };
}
