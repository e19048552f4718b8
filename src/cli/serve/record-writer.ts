import { addLoss, lossLine, mergeLosses, type LossWindow } from './loss-window.js';

/** Where a {@link RecordWriter} sends its batches: a file or a pipe. */
export interface RecordSink {
  /**
   * Writes `text` (whole lines) and calls `done` once: with null when all of it was written, or
   * with the error and how many bytes of it were written before it failed.
   */
  write(
    text: string,
    done: (error: NodeJS.ErrnoException | null, bytesWritten: number) => void,
  ): void;
  close(): void;
}

/** What a writer has to say, at most once per episode (a failure and its end, falling behind). */
export type RecordWriterNews =
  | { type: 'behind'; lost: number }
  | { type: 'failed'; reason: string; lost: number }
  | { type: 'resumed'; lost: number };

/** Options of {@link createRecordWriter}. */
export interface RecordWriterOptions<T> {
  sink: RecordSink;
  /**
   * One record as its line (ending in a newline). Called at the next flush rather than at
   * {@link RecordWriter.push}: a request pays nothing for it, and a batch is formatted at once.
   */
  format(record: T): string;
  /**
   * Characters of records held at most while waiting to be written; more are dropped and counted.
   * The records of the last moment (20 ms), not formatted yet, count as long as the average line
   * formatted so far.
   */
  maxBufferChars: number;
  /** Runs `flush` soon: what came meanwhile goes in the same write. */
  schedule(flush: () => void): void;
  tell(news: RecordWriterNews): void;
}

/** Counts of a writer. */
export interface RecordCounts {
  written: number;
  lost: number;
  /** Waiting to be written, or being written. */
  buffered: number;
}

/**
 * Batches record lines into a sink: one write at a time, holding at most `maxBufferChars`
 * meanwhile. It never blocks and never loses a record silently: a record that does not fit is
 * dropped and counted, a write that fails counts its records, and every loss is written into the
 * file (a loss marker line) at the first write that succeeds after it.
 */
export interface RecordWriter<T> {
  /** Adds a record, of time `at`: it is formatted, and written, at the next flush. */
  push(record: T, at: number): void;
  /** Stops writing until {@link resume} (the file could not be reopened); records wait, bounded. */
  pause(reason: string): void;
  /** Writes again after a failure: called about once a second. */
  resume(): void;
  /**
   * Writes to `sink` from the next batch on (the path was reopened); the old sink is closed once
   * its write is done. With `discard`, what was written since the last {@link checkpoint} (to a
   * file since deleted) counts as lost, for that reason.
   */
  replaceSink(sink: RecordSink, discard?: string): void;
  /** The file was seen in its place: what was written so far is safe. */
  checkpoint(): void;
  /** Resolves once everything pushed is written or lost, or the writer is paused by a failure. */
  settled(): Promise<void>;
  /** Counts what is still buffered or being written as lost (shutdown with a stalled reader). */
  abandon(reason: string): void;
  /** Closes its sink, and one waiting to replace it. */
  close(): void;
  counts(): RecordCounts;
}

/** One write: its records' times, and the loss line it starts with. */
interface Batch {
  ats: number[];
  marker: LossWindow | undefined;
  /** Whether it starts by ending a line cut short by the write before. */
  endsCut: boolean;
}

/** Before any line is formatted: what a record is taken to need, in characters. */
const FIRST_GUESS_CHARS = 512;

/** Creates a {@link RecordWriter}. */
export function createRecordWriter<T>(options: RecordWriterOptions<T>): RecordWriter<T> {
  const writer = new BatchWriter(options);
  return {
    push: (record, at) => writer.push(record, at),
    pause: (reason) => writer.pause(reason),
    resume: () => writer.resume(),
    replaceSink: (sink, discard) => writer.replaceSink(sink, discard),
    checkpoint: () => writer.checkpoint(),
    settled: () => writer.settled(),
    abandon: (reason) => writer.abandon(reason),
    close: () => writer.close(),
    counts: () => writer.counts(),
  };
}

/** The state of a {@link RecordWriter}, and its moves. */
class BatchWriter<T> {
  #sink: RecordSink;
  #replacement: { sink: RecordSink; discard: string | undefined } | undefined;
  /**
   * Waiting to be written: records not formatted yet (the newest), the lines of those formatted,
   * the times of both (lines first), and the lines' length.
   */
  #records: T[] = [];
  #lines: string[] = [];
  #ats: number[] = [];
  #chars = 0;
  /** Lines formatted so far, and their characters: the guess at a record's size. */
  #formatted = { lines: 0, chars: 0 };
  #inFlight: Batch | undefined;
  #scheduled = false;
  #unmarked: LossWindow | undefined;
  /** Why writing stopped; undefined while it goes on. */
  #failure: string | undefined;
  #failureTold = false;
  #behindTold = false;
  /** The last failed write left a line cut short in the file: the next write ends it first. */
  #cutLine = false;
  #written = 0;
  #lost = 0;
  /** Written since the file was last seen in its place. */
  #sinceCheck = { count: 0, from: 0, to: 0 };
  #waiters: Array<() => void> = [];
  /** Why the writer gave up (shutdown): what comes later is lost at once. */
  #abandoned: string | undefined;

  constructor(private readonly options: RecordWriterOptions<T>) {
    this.#sink = options.sink;
  }

  push(record: T, at: number): void {
    if (this.#abandoned !== undefined) return this.#lose(1, at, at, this.#abandoned);
    const { lines, chars } = this.#formatted;
    const guess = lines === 0 ? FIRST_GUESS_CHARS : chars / lines;
    const held = this.#chars + (this.#records.length + 1) * guess;
    if (held > this.options.maxBufferChars && this.#ats.length > 0) {
      this.#lose(1, at, at, this.#failure ?? 'buffer-full');
      if (this.#failure === undefined && !this.#behindTold) {
        this.#behindTold = true;
        this.options.tell({ type: 'behind', lost: this.#lost });
      }
      return;
    }
    this.#records.push(record);
    this.#ats.push(at);
    this.#later();
  }

  pause(reason: string): void {
    this.#failure ??= reason;
    this.#tellFailure(reason);
    this.#wake();
  }

  resume(): void {
    if (this.#failure === undefined || this.#inFlight !== undefined) return;
    this.#failure = undefined;
    this.#later();
  }

  replaceSink(sink: RecordSink, discard: string | undefined): void {
    this.#replacement = { sink, discard };
    if (this.#inFlight !== undefined) return;
    this.#swap();
    this.#later();
  }

  checkpoint(): void {
    this.#sinceCheck = { count: 0, from: 0, to: 0 };
  }

  settled(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiters.push(resolve);
      this.#wake();
    });
  }

  abandon(reason: string): void {
    for (const times of [this.#inFlight?.ats ?? [], this.#ats])
      this.#lose(times.length, times[0] ?? 0, times.at(-1) ?? 0, reason);
    this.#records = [];
    this.#lines = [];
    this.#ats = [];
    this.#chars = 0;
    this.#inFlight = undefined;
    this.#failure = reason;
    this.#abandoned = reason;
    this.#wake();
  }

  close(): void {
    this.#sink.close();
    this.#replacement?.sink.close();
    this.#replacement = undefined;
  }

  counts(): RecordCounts {
    const buffered = this.#ats.length + (this.#inFlight?.ats.length ?? 0);
    return { written: this.#written, lost: this.#lost, buffered };
  }

  #lose(count: number, from: number, to: number, reason: string): void {
    if (count <= 0) return;
    this.#lost += count;
    this.#unmarked = addLoss(this.#unmarked, count, from, to, reason);
  }

  #tellFailure(reason: string): void {
    if (this.#failureTold) return;
    this.#failureTold = true;
    this.options.tell({ type: 'failed', reason, lost: this.#lost });
  }

  /** Resolves those waiting for the writer to settle, when it has. */
  #wake(): void {
    if (this.#inFlight !== undefined) return;
    const pending = this.#ats.length > 0 || this.#unmarked !== undefined;
    if (this.#failure === undefined && pending) return;
    const waiting = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiting) resolve();
  }

  /**
   * Schedules a flush: to write, when no write is out and none failed; to format the records
   * that came meanwhile, so that what waits is counted to the character, in any case.
   */
  #later(): void {
    if (this.#scheduled) return;
    const idle = this.#inFlight === undefined && this.#failure === undefined;
    if (!idle && this.#records.length === 0) return;
    this.#scheduled = true;
    this.options.schedule(() => this.#flush());
  }

  /** Formats the records waiting into lines; one that cannot be formatted is lost, and counted. */
  #format(): void {
    const records = this.#records;
    if (records.length === 0) return;
    this.#records = [];
    const first = this.#lines.length;
    let kept = first;
    for (let index = 0; index < records.length; index++) {
      let line: string;
      try {
        line = this.options.format(records[index]!);
      } catch {
        const at = this.#ats[first + index]!;
        this.#lose(1, at, at, 'unformattable');
        continue;
      }
      this.#ats[kept++] = this.#ats[first + index]!;
      this.#lines.push(line);
      this.#chars += line.length;
      this.#formatted.lines++;
      this.#formatted.chars += line.length;
    }
    this.#ats.length = kept;
  }

  #flush(): void {
    this.#scheduled = false;
    this.#format();
    if (this.#inFlight !== undefined || this.#failure !== undefined) return this.#wake();
    if (this.#lines.length === 0 && this.#unmarked === undefined) return this.#wake();
    const batch: Batch = { ats: this.#ats, marker: this.#unmarked, endsCut: this.#cutLine };
    const marker = this.#unmarked === undefined ? '' : lossLine(this.#unmarked);
    const text = `${this.#cutLine ? '\n' : ''}${marker}${this.#lines.join('')}`;
    this.#cutLine = false;
    this.#unmarked = undefined;
    this.#lines = [];
    this.#ats = [];
    this.#chars = 0;
    this.#inFlight = batch;
    this.#sink.write(text, (error, bytes) => this.#finished(batch, text, error, bytes));
  }

  #finished(batch: Batch, text: string, error: NodeJS.ErrnoException | null, bytes: number): void {
    if (batch !== this.#inFlight) return; // abandoned meanwhile: counted already
    this.#inFlight = undefined;
    const done = error === null ? batch.ats.length : this.#failed(batch, text, error, bytes);
    if (done > 0) {
      this.#written += done;
      if (this.#sinceCheck.count === 0) this.#sinceCheck.from = batch.ats[0]!;
      this.#sinceCheck.count += done;
      this.#sinceCheck.to = batch.ats[done - 1]!;
    }
    if (this.#replacement !== undefined) this.#swap();
    const caughtUp = this.#failureTold || (this.#behindTold && this.#ats.length === 0);
    if (error === null && this.#failure === undefined && caughtUp) {
      this.#failureTold = false;
      this.#behindTold = false;
      this.options.tell({ type: 'resumed', lost: this.#lost });
    }
    this.#later();
    this.#wake();
  }

  /**
   * Counts what a failed write lost and stops writing until resumed; returns how many of its
   * records were written whole before it failed (they are in the file). A line cut short is
   * ended by the next write, and the loss line after it tells the loss.
   */
  #failed(batch: Batch, text: string, error: NodeJS.ErrnoException, bytes: number): number {
    const reason = error.code ?? error.message;
    const kept = keptOf(text, bytes);
    this.#cutLine = bytes === 0 ? batch.endsCut : kept.cut;
    const whole = kept.lines - (batch.endsCut && bytes > 0 ? 1 : 0);
    if (batch.marker !== undefined && whole < 1)
      this.#unmarked = mergeLosses(batch.marker, this.#unmarked);
    const count = batch.ats.length;
    const done = Math.max(0, Math.min(count, whole - (batch.marker === undefined ? 0 : 1)));
    const cause = `write-failed: ${reason}`;
    this.#lose(count - done, batch.ats[done] ?? 0, batch.ats.at(-1) ?? 0, cause);
    this.#failure ??= cause;
    this.#tellFailure(reason);
    return done;
  }

  #swap(): void {
    const next = this.#replacement!;
    this.#replacement = undefined;
    this.#sink.close();
    this.#sink = next.sink;
    this.#cutLine = false;
    if (next.discard !== undefined) {
      const { count, from, to } = this.#sinceCheck;
      this.#written -= count;
      this.#lose(count, from, to, next.discard);
    }
    this.checkpoint();
    this.#failure = undefined;
  }
}

/** How many whole lines the first `bytes` bytes of `text` hold, and whether a line was cut. */
function keptOf(text: string, bytes: number): { lines: number; cut: boolean } {
  if (bytes <= 0) return { lines: 0, cut: false };
  const head = Buffer.from(text).subarray(0, bytes);
  let lines = 0;
  for (let index = head.indexOf(0x0a); index !== -1; index = head.indexOf(0x0a, index + 1)) lines++;
  return { lines, cut: head[head.length - 1] !== 0x0a };
}
