import { createReadStream } from 'node:fs';
import type { RequestRecord } from '../../core/records/records.js';
import { describeJsonError } from '../config-loader.js';
import { describeFsError } from '../file-error.js';
import { CliError, EXIT, isCliError } from '../io.js';
import { RecordingLines } from './recording-lines.js';
import { checkedRecord } from './checked-record.js';
import { escapeControls } from '../../text/escape-controls.js';
import { createLossTally, type LossTally } from './recording-losses.js';

/** The largest recording read as one JSON document (a list of records); NDJSON has no limit. */
const MAX_DOCUMENT_BYTES = 64 * 1_048_576;

/** How a recording read from standard input is named in messages. */
const STDIN = 'on stdin';

/** The first bytes of a gzip file (RFC 1952), which no recording starts with. */
const GZIP = Buffer.from([0x1f, 0x8b]);

/** The bytes a UTF-8 byte order mark takes at the start of a file. */
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Where a recording comes from: a file, or (`-`) standard input. */
export interface RecordingSource {
  /** A path, or `-` for `stdin`. */
  path: string;
  stdin?: NodeJS.ReadableStream | undefined;
}

/**
 * Reads a recording in one pass, from a file, a pipe or standard input (`-`): the NDJSON
 * `uas serve --record` writes (one record a line, streamed, any size; a line longer than 1 MiB is
 * refused as soon as it is that long), or one JSON document of at most 64 MiB (a list of
 * records, or what `GET /__uas/requests` answers). A UTF-8 byte order mark at the start is
 * skipped; a gzip file is refused, saying to decompress it first. Every record is checked; the first bad line is named, with why, and nothing is judged.
 *
 * One exception: a last line that is not JSON, has no newline after it and starts with `{` as a
 * record does, is what a server
 * stopped in the middle of a write leaves (`--record` writes each line, newline included, in one
 * write, so only the last can be cut). It is left out, and `warn` says so with its line number.
 * Loss markers (what `--record` could not write) go to `losses`; a line that is not JSON just
 * before one is a line a failed write cut short, counted in that loss.
 */
export async function readRecording(
  source: RecordingSource,
  warn: (line: string) => void = () => {},
  losses: LossTally = createLossTally(),
  leftOut: LeftOut = {},
): Promise<RequestRecord[]> {
  const name = source.path === '-' ? STDIN : source.path;
  let input: NodeJS.ReadableStream | undefined;
  if (source.path !== '-') input = createReadStream(source.path);
  else if (source.stdin === undefined)
    throw new CliError('--journal -: there is no standard input to read', EXIT.usage);
  // A recording is piped in: a terminal would have uas wait, silently, for lines typed.
  else if ((source.stdin as { isTTY?: boolean }).isTTY === true)
    throw new CliError(
      "--journal -: standard input is a terminal; pipe a recording into it, or give the recording's file",
      EXIT.usage,
    );
  else input = source.stdin;
  const reader = new RecordingReader(name, warn, losses, leftOut);
  try {
    for await (const chunk of input) reader.push(toBuffer(chunk));
  } catch (error) {
    if (isCliError(error)) throw error;
    throw new CliError(`cannot read recording ${name}: ${describeFsError(error)}`, EXIT.usage);
  } finally {
    if (source.path !== '-') (input as ReturnType<typeof createReadStream>).destroy();
  }
  return reader.end();
}

function toBuffer(chunk: string | Buffer | Uint8Array): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
}

/**
 * Takes a recording chunk by chunk. Its first bytes tell its form: `[`, or `{` that does not open
 * a record (`{"id":`, as `--record` writes it), is a JSON document, kept whole (up to its limit)
 * and parsed at the end; anything else is NDJSON, read a line at a time. A list that does not
 * parse is refused, saying where; an object that does not is read as NDJSON after all (a
 * recording from elsewhere, its fields in another order).
 */
class RecordingReader {
  private form: 'unknown' | 'document' | 'lines' = 'unknown';
  /** Bytes kept until the form is known, or the whole document. */
  private kept: Buffer[] = [];
  private keptBytes = 0;
  private started = false;
  private readonly lines: RecordingLines;

  constructor(
    private readonly name: string,
    warn: (line: string) => void,
    losses: LossTally,
    private readonly leftOut: LeftOut,
  ) {
    this.lines = new RecordingLines(name, warn, losses);
  }

  push(chunk: Buffer): void {
    if (this.form === 'lines') return this.lines.push(chunk);
    this.keep(chunk);
    if (this.form === 'unknown') this.decide(false);
  }

  end(): RequestRecord[] {
    if (this.form === 'unknown') this.decide(true);
    if (this.form === 'document') {
      const text = Buffer.concat(this.kept).toString('utf8');
      const document = parseJson(text);
      if (document !== undefined) return this.documentRecords(document);
      if (text.trimStart().startsWith('['))
        throw new CliError(
          `recording ${this.name} is a JSON list but not valid JSON: ${describeJsonError(text)}`,
          EXIT.usage,
        );
      // Not one document: lines after all, from the bytes kept (a pipe cannot be read again).
      this.lines.push(Buffer.concat(this.kept));
      this.kept = [];
    }
    return this.lines.end();
  }

  private keep(chunk: Buffer): void {
    let bytes = chunk;
    if (!this.started) {
      // A byte order mark, split over chunks or not, is the start of the stream only.
      const head = Buffer.concat([...this.kept, bytes]);
      if (head.length < BOM.length && BOM.subarray(0, head.length).equals(head)) {
        this.kept = [head];
        this.keptBytes = head.length;
        return;
      }
      this.started = true;
      bytes = head.subarray(0, BOM.length).equals(BOM) ? head.subarray(BOM.length) : head;
      this.kept = [];
      this.keptBytes = 0;
    }
    this.kept.push(bytes);
    this.keptBytes += bytes.length;
    if (this.form === 'document') this.checkDocumentSize();
  }

  /** Tells the form from the first bytes that are not white space, once there are enough. */
  private decide(ended: boolean): void {
    if (!this.started && !ended) return;
    const head = Buffer.concat(this.kept);
    this.kept = [head];
    if (head[0] === GZIP[0] && (head.length < GZIP.length ? !ended : head[1] === GZIP[1])) {
      if (head.length < GZIP.length) return;
      throw new CliError(
        `recording ${this.name} is compressed (gzip): decompress it first (${this.name === STDIN ? 'gunzip -c' : `gunzip -c ${this.name}`}, piped to --journal -)`,
        EXIT.usage,
      );
    }
    const form = formOf(head, ended);
    if (form === undefined) return;
    this.form = form;
    if (form === 'document') return this.checkDocumentSize();
    this.kept = [];
    this.keptBytes = 0;
    this.lines.push(head);
  }

  private checkDocumentSize(): void {
    if (this.keptBytes > MAX_DOCUMENT_BYTES)
      throw new CliError(
        `recording ${this.name} is a JSON document larger than ${MAX_DOCUMENT_BYTES / 1_048_576} MiB, the most uas check reads whole; give the records one a line (NDJSON, as uas serve --record writes them), which has no size limit`,
        EXIT.usage,
      );
  }

  private documentRecords(document: unknown): RequestRecord[] {
    const list = Array.isArray(document)
      ? document
      : (document as { requests?: unknown } | null)?.requests;
    if (!Array.isArray(list))
      throw new CliError(
        `recording ${this.name} is a JSON document but neither a list of records nor {"requests": [...]}`,
        EXIT.usage,
      );
    if (!Array.isArray(document)) this.readPaging(document as Record<string, unknown>);
    return list.map((value, index) => checkedRecord(value, this.name, `record ${index + 1}`));
  }

  /** What a saved `GET /__uas/requests` answer says it left out: `dropped`, `next_after_id`. */
  private readPaging({ dropped = 0, next_after_id: next = null }: Record<string, unknown>): void {
    const count = (value: unknown, least: number) =>
      typeof value === 'number' && Number.isSafeInteger(value) && value >= least;
    for (const [field, value, least] of [
      ['dropped', dropped, 0],
      ['next_after_id', next ?? 1, 1],
    ] as const)
      if (!count(value, least))
        throw new CliError(
          `recording ${this.name} holds {"requests": [...]} with a ${field} that is not a whole number from ${least} up (${escapeControls(String(JSON.stringify(value)), { keepNewlines: false })})`,
          EXIT.usage,
        );
    this.leftOut.dropped = dropped as number;
    if (next !== null)
      this.leftOut.nextPage = `the recording ${this.name} is one page of GET /__uas/requests: the requests after #${next as number} were not in it and are not judged (uas check --url reads every page)`;
  }
}

/** What a saved `GET /__uas/requests` answer left out, filled in by {@link readRecording}. */
export interface LeftOut {
  /** Its `dropped`: requests the journal had let go. */
  dropped?: number;
  /** A warning when it was one page of several (its `next_after_id` was set). */
  nextPage?: string;
}

/** How `uas serve --record` starts every line: a record, or a loss marker. */
const LINE_OPENINGS = ['{"id":', '{"uas_recording":'];

/** JSON's white space: space, tab, line feed, carriage return. */
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * The form of a recording from its first bytes, or undefined while they do not tell yet: only
 * white space so far (up to a line's limit), or a `{` too close to the end to see what follows.
 */
function formOf(head: Buffer, ended: boolean): 'document' | 'lines' | undefined {
  const at = head.findIndex((byte) => !WHITESPACE.has(byte));
  if (at === -1) return ended || head.length > MAX_UNDECIDED_BYTES ? 'lines' : undefined;
  if (head[at] === 0x5b /* [ */) return 'document';
  if (head[at] !== 0x7b /* { */) return 'lines';
  const rest = head.subarray(at).toString('latin1');
  if (LINE_OPENINGS.some((opening) => opening.startsWith(rest)) && !ended) return undefined;
  return LINE_OPENINGS.some((opening) => rest.startsWith(opening)) ? 'lines' : 'document';
}

/** White space kept before a recording's form is told: beyond, it is read as NDJSON's blank lines. */
const MAX_UNDECIDED_BYTES = 1_048_576;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
