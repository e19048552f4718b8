import { readRequestRecord } from '../../core/records/record-schema.js';
import type { RequestRecord } from '../../core/records/records.js';
import { escapeControls } from '../../text/escape-controls.js';
import { escapeUnicodeControls } from '../../text/json-text.js';
import { CliError, EXIT } from '../io.js';

/**
 * A record of a recording, checked field by field; otherwise a usage error naming the recording,
 * where in it (`line 3`, `record 2`) and why; the value it quotes is escaped for a terminal (C1
 * and bidi controls as `\uXXXX`, as JSON writes the C0 ones).
 */
export function checkedRecord(value: unknown, name: string, where: string): RequestRecord {
  const read = readRequestRecord(value);
  if (!read.ok)
    throw new CliError(
      `recording ${name}, ${where}: not a request record (${escapeControls(escapeUnicodeControls(read.error), { keepNewlines: false })})`,
      EXIT.usage,
    );
  return read.record;
}
