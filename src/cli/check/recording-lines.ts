import type { RequestRecord } from '../../core/records/records.js';
import { CliError, EXIT } from '../io.js';
import { checkedRecord } from './checked-record.js';
import { isLossMarkerLine } from '../../check/recording-loss.js';
import type { LossTally } from './recording-losses.js';

/** The longest line of a recording: a record is a few KB at most. */
export const MAX_LINE_BYTES = 1_048_576;

/**
 * The NDJSON of a recording, taken chunk by chunk: each line is cut from the bytes and decoded
 * whole (a character split between chunks stays whole), and refused as soon as it grows past
 * {@link MAX_LINE_BYTES}, before the rest of it is read. Blank lines are skipped; a line that is
 * not JSON is refused by number, unless it is the last, has no newline after it and starts as a
 * record does, with `{` (a write cut short), which is left out with a warning, or comes just before a loss marker (a line a failed
 * write cut short, counted in that loss). Loss markers go to the tally, not to the records.
 */
export class RecordingLines {
  private readonly records: RequestRecord[] = [];
  /** The start of a line whose end has not come yet. */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private number = 0;
  /** A line that is not JSON: an error, unless it turns out to be the cut last line. */
  private unreadable: number | undefined;
  /** Whether that line starts as a record does (`{`): only such a line can be one cut short. */
  private unreadableOpensRecord = false;

  constructor(
    private readonly name: string,
    private readonly warn: (line: string) => void,
    private readonly losses: LossTally,
  ) {}

  push(chunk: Buffer): void {
    let from = 0;
    for (let end = chunk.indexOf(0x0a, from); end !== -1; end = chunk.indexOf(0x0a, from)) {
      this.grow(end - from);
      const line =
        this.partial.length === 0
          ? chunk.subarray(from, end)
          : Buffer.concat([...this.partial, chunk.subarray(from, end)]);
      this.partial = [];
      this.partialBytes = 0;
      this.line(line);
      from = end + 1;
    }
    if (from < chunk.length) {
      this.grow(chunk.length - from);
      this.partial.push(chunk.subarray(from));
    }
  }

  /** The records read, once the input has ended. */
  end(): RequestRecord[] {
    const cut = this.partialBytes > 0;
    if (cut) this.line(Buffer.concat(this.partial));
    if (this.unreadable !== undefined) {
      // Only the very last line, with no newline after it, can be a write cut short.
      if (!cut || this.unreadable !== this.number || !this.unreadableOpensRecord)
        throw this.notJson(this.unreadable);
      this.warn(
        `recording ${this.name}, line ${this.unreadable}: cut short (the server stopped while writing it); judged without it`,
      );
    }
    return this.records;
  }

  /** Counts `bytes` more of the current line, refusing it once it is too long. */
  private grow(bytes: number): void {
    this.partialBytes += bytes;
    if (this.partialBytes > MAX_LINE_BYTES)
      throw new CliError(
        `recording ${this.name}, line ${this.number + 1}: longer than ${MAX_LINE_BYTES / 1_048_576} MiB; not a request record`,
        EXIT.usage,
      );
  }

  private line(bytes: Buffer): void {
    this.number++;
    const text = bytes.toString('utf8');
    if (text.trim() === '') return;
    if (this.unreadable !== undefined && !isLossMarkerLine(text))
      throw this.notJson(this.unreadable);
    this.unreadable = undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.unreadable = this.number;
      this.unreadableOpensRecord = text.trimStart().startsWith('{');
      return;
    }
    if (this.losses.take(value, this.name, `line ${this.number}`)) return;
    this.records.push(checkedRecord(value, this.name, `line ${this.number}`));
  }

  private notJson(line: number): CliError {
    return new CliError(`recording ${this.name}, line ${line}: not JSON`, EXIT.usage);
  }
}
