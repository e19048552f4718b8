import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { isLossMarkerLine } from '../../check/recording-loss.js';
import { readRequestRecord } from '../../check/record-schema.js';
import type { RequestRecord } from '../../core/admin/records.js';
import { readBoundedFile } from '../config-loader.js';
import { CliError, EXIT } from '../io.js';
import { createLossTally, type LossTally } from './recording-losses.js';

/** The longest line of a recording: a record is a few KB at most. */
const MAX_LINE = 1_048_576;

/**
 * Reads a recording: the NDJSON `uas serve --record` writes (one record a line, streamed, any
 * size), or one JSON document (a list of records, or what `GET /__uas/requests` answers). Every
 * record is checked; the first bad line is named, with why, and nothing is judged.
 *
 * One exception: a last line that is not JSON and has no newline after it is what a server
 * stopped in the middle of a write leaves (`--record` writes each line, newline included, in one
 * write, so only the last can be cut). It is left out, and `warn` says so with its line number.
 * Loss markers (what `--record` could not write) go to `losses`; a line that is not JSON just
 * before one is a line a failed write cut short, counted in that loss.
 */
export async function readRecording(
  path: string,
  warn: (line: string) => void = () => {},
  losses: LossTally = createLossTally(),
): Promise<RequestRecord[]> {
  const head = (
    await readBoundedFile(path, 'recording', 64 * 1_048_576).catch((error: unknown) => {
      // A recording larger than a JSON document may be: read it as NDJSON below.
      if (error instanceof CliError && /larger than/.test(error.message)) return undefined;
      throw error;
    })
  )?.replace(/^\uFEFF/, '');
  if (head !== undefined && /^\s*[[{]/.test(head) && !/^\s*\{"(id|uas_recording)":/.test(head)) {
    let document: unknown;
    try {
      document = JSON.parse(head);
    } catch {
      document = undefined;
    }
    if (document !== undefined) {
      const list = Array.isArray(document)
        ? document
        : (document as { requests?: unknown }).requests;
      if (!Array.isArray(list))
        throw new CliError(
          `recording ${path} is a JSON document but neither a list of records nor {"requests": [...]}`,
          EXIT.usage,
        );
      return list.map((value, index) => checked(value, path, `record ${index + 1}`));
    }
  }
  const records: RequestRecord[] = [];
  const lines = createInterface({
    input: createReadStream(path, { encoding: 'utf8' }),
    crlfDelay: Infinity,
  });
  let number = 0;
  // A line that is not JSON: an error, unless it turns out to be the cut last line.
  let unreadable: number | undefined;
  const notJson = (line: number) =>
    new CliError(`recording ${path}, line ${line}: not JSON`, EXIT.usage);
  for await (const line of lines) {
    number++;
    if (line.trim() === '') continue;
    if (unreadable !== undefined && !isLossMarkerLine(line)) throw notJson(unreadable);
    unreadable = undefined;
    if (line.length > MAX_LINE)
      throw new CliError(
        `recording ${path}, line ${number}: longer than 1 MiB; not a request record`,
        EXIT.usage,
      );
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      unreadable = number;
      continue;
    }
    if (losses.take(value, path, `line ${number}`)) continue;
    records.push(checked(value, path, `line ${number}`));
  }
  if (unreadable !== undefined) {
    if (await endsWithNewline(path)) throw notJson(unreadable);
    warn(
      `recording ${path}, line ${unreadable}: cut short (the server stopped while writing it); judged without it`,
    );
  }
  return records;
}

/** Whether the file's last byte is a newline. */
async function endsWithNewline(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    await file.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await file.close();
  }
}

function checked(value: unknown, path: string, where: string): RequestRecord {
  const read = readRequestRecord(value);
  if (!read.ok)
    throw new CliError(
      `recording ${path}, ${where}: not a request record (${read.error})`,
      EXIT.usage,
    );
  return read.record;
}
