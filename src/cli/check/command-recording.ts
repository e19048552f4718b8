import { resolve as resolvePath } from 'node:path';
import type { RequestRecord } from '../../core/records/records.js';
import { CliError, EXIT } from '../io.js';
import { recordOpenError, refuseRecordName } from '../record-open-error.js';
import { openSinkSync, type OpenedSink } from '../serve/record-sink.js';

/** The `--record` file of `uas check -- <command>`, opened (emptied) before the command runs. */
export interface CommandRecording {
  path: string;
  sink: OpenedSink;
}

/**
 * Opens `--record`, so that a bad path stops nothing: a file is emptied; a FIFO is opened only
 * when a reader holds it (one nobody reads is refused at once, exit 2) and written without ever
 * blocking uas (see {@link openSinkSync}).
 */
export function openCommandRecording(file: string, cwd: string): CommandRecording {
  refuseRecordName(file);
  const path = resolvePath(cwd, file);
  try {
    return { path, sink: openSinkSync(path, 'truncate') };
  } catch (error) {
    throw recordOpenError(path, error);
  }
}

/**
 * Writes the records oldest first, one JSON line each (the NDJSON of `uas serve --record`), and
 * closes the file. `stopped` (SIGINT, SIGTERM or SIGHUP) meanwhile (a reader that does not keep up) cuts it short:
 * the warning that says so is returned, and the report is still given.
 */
export async function writeCommandRecording(
  recording: CommandRecording,
  records: RequestRecord[],
  stopped: Promise<string>,
): Promise<string | undefined> {
  const ordered = [...records].sort((a, b) => a.id - b.id);
  try {
    for (let from = 0; from < ordered.length; from += 1_000) {
      const text = ordered
        .slice(from, from + 1_000)
        .map((record) => `${JSON.stringify(record)}\n`)
        .join('');
      const written = new Promise<NodeJS.ErrnoException | null>((resolve) =>
        recording.sink.write(text, (error) => resolve(error)),
      );
      const ended = await Promise.race([written.then((error) => ({ error })), stopped]);
      if (typeof ended === 'string')
        return `uas check got ${ended} while writing --record ${recording.path}, so the recording was cut short (its reader did not keep up)`;
      if (ended.error !== null)
        throw new CliError(
          `cannot write --record ${recording.path}: ${ended.error.code ?? ended.error.message}`,
          EXIT.usage,
        );
    }
    return undefined;
  } finally {
    recording.sink.close();
  }
}
