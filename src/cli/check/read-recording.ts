import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { readRequestRecord } from '../../check/record-schema.js';
import type { RequestRecord } from '../../core/admin/records.js';
import { readBoundedFile } from '../config-loader.js';
import { CliError, EXIT } from '../io.js';

/** The longest line of a recording: a record is a few KB at most. */
const MAX_LINE = 1_048_576;

/**
 * Reads a recording: the NDJSON `uas serve --record` writes (one record a line, streamed, any
 * size), or one JSON document (a list of records, or what `GET /__uas/requests` answers). Every
 * record is checked; the first bad line is named, with why, and nothing is judged.
 */
export async function readRecording(path: string): Promise<RequestRecord[]> {
  const head = (
    await readBoundedFile(path, 'recording', 64 * 1_048_576).catch((error: unknown) => {
      // A recording larger than a JSON document may be: read it as NDJSON below.
      if (error instanceof CliError && /larger than/.test(error.message)) return undefined;
      throw error;
    })
  )?.replace(/^\uFEFF/, '');
  if (head !== undefined && /^\s*[[{]/.test(head) && !/^\s*\{"id":/.test(head)) {
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
  for await (const line of lines) {
    number++;
    if (line.trim() === '') continue;
    if (line.length > MAX_LINE)
      throw new CliError(
        `recording ${path}, line ${number}: longer than 1 MiB; not a request record`,
        EXIT.usage,
      );
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new CliError(`recording ${path}, line ${number}: not JSON`, EXIT.usage);
    }
    records.push(checked(value, path, `line ${number}`));
  }
  return records;
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
