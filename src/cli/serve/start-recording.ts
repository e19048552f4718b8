import { resolve } from 'node:path';
import { plural } from '../../check/check-rule.js';
import type { AnyEmulator } from '../../core/emulator.js';
import type { RequestRecord } from '../../core/records/records.js';
import type { CliIO } from '../io.js';
import { escapeControls } from '../safe-text.js';
import { recordOpenError } from '../record-open-error.js';
import { endCutLine } from './end-cut-line.js';
import { workerRole } from './worker-role.js';
import { pacedSchedule } from './paced-schedule.js';
import { openSinkSync, reopenSink, type OpenedSink } from './record-sink.js';
import { createRecordWriter, type RecordWriter, type RecordWriterNews } from './record-writer.js';

/** How often the path is looked at (moved or deleted?) and a failed write tried again. */
const CHECK_EVERY_MS = 1_000;

/**
 * The least time between two writes: under load, the records of 20 ms go in one write rather
 * than a write per turn of the event loop; a request after a quiet moment is written at once. A
 * killed server loses at most these 20 ms and the write in flight.
 */
const WRITE_EVERY_MS = 20;

/** What `--record-buffer` holds when not given: 16 MiB. */
const RECORD_BUFFER_BYTES = 16 * 1_048_576;

/** How long a shutdown waits for the last records to be written (a reader may have stalled). */
const STOP_GRACE_MS = 2_000;

/** `uas serve --record FILE`, open. */
export interface Recording {
  /** Prometheus text of its counters, for `GET /__uas/metrics`. */
  metrics(): string;
  /** Records what `emulator` answers from now on. */
  attach(emulator: AnyEmulator): void;
  /**
   * Writes what is buffered (waiting at most a moment for a stalled reader), closes the file, and
   * says on stderr how many records were lost, if any.
   */
  stop(): Promise<void>;
}

/**
 * Starts the recording of `uas serve --record FILE` (undefined without the flag), telling on
 * stderr what it loses. A file that cannot be opened, or a FIFO nobody reads, is a CliError
 * (exit 2): the server then stops before it listens.
 */
export function startRecording(
  flags: { record?: string | undefined; recordBuffer?: number | undefined },
  io: CliIO,
): Recording | undefined {
  if (flags.record === undefined) return undefined;
  // With --workers, the primary did it before any worker could append.
  if (workerRole(io.env) === undefined) endCutLine(resolve(io.cwd, flags.record));
  // What it says names the file: a path with control characters must not drive the terminal.
  return openRecording(flags.record, io.cwd, flags.recordBuffer ?? RECORD_BUFFER_BYTES, (line) =>
    io.stderr.write(`${escapeControls(line)}\n`),
  );
}

/**
 * Opens `file` for `uas serve --record`: every request is appended as one JSON line, in batches
 * (one write at a time, each carrying what came meanwhile), holding at most `bufferBytes` while
 * the file or its reader is slow. What does not fit, or a write that fails, is counted (metrics,
 * stderr once, and a loss line in the file); a moved or deleted file is reopened at its path.
 * Throws a CliError (exit 2) when the file cannot be opened.
 */
function openRecording(
  file: string,
  cwd: string,
  bufferBytes: number,
  warn: (line: string) => void,
): Recording {
  const path = resolve(cwd, file);
  let sink: OpenedSink;
  try {
    sink = openSinkSync(path);
  } catch (error) {
    throw recordOpenError(path, error);
  }
  // Records are heard incomplete, and completed (fields parsed, secrets redacted) as a batch is
  // formatted: a request pays for neither.
  let complete = (record: RequestRecord) => record;
  const writer = createRecordWriter<RequestRecord>({
    sink,
    format: (record) => `${JSON.stringify(complete(record))}\n`,
    maxBufferChars: bufferBytes,
    schedule: pacedSchedule(WRITE_EVERY_MS),
    tell: (news) => warn(describeNews(news, path, bufferBytes)),
  });
  let unsubscribe = () => {};
  let checking = false;
  let stopped = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    void lookAtPath(path, sink, writer, warn, () => stopped)
      .then((reopened) => (sink = reopened ?? sink))
      .finally(() => (checking = false));
  }, CHECK_EVERY_MS);
  timer.unref();
  return {
    metrics: () => recordingMetrics(writer),
    attach(emulator) {
      complete = (record) => emulator.completeRecord(record);
      unsubscribe = emulator.subscribe(
        (event) => {
          if (event.type === 'request') writer.push(event.request, event.request.at);
        },
        { records: 'deferred' },
      );
    },
    async stop() {
      stopped = true;
      unsubscribe();
      clearInterval(timer);
      writer.resume();
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([
        writer.settled(),
        new Promise((done) => (wait = setTimeout(done, STOP_GRACE_MS))),
      ]);
      clearTimeout(wait);
      writer.abandon('shutdown');
      writer.close();
      const { written, lost } = writer.counts();
      if (lost > 0)
        warn(
          `uas: recording to ${path}: ${plural(lost, 'request')} lost in all, ${written} written`,
        );
    },
  };
}

/**
 * Once a second: the path still leads to the open file (or it was moved or deleted, and is
 * reopened: the new sink is returned), and a write that failed is tried again.
 */
async function lookAtPath(
  path: string,
  sink: OpenedSink,
  writer: RecordWriter<RequestRecord>,
  warn: (line: string) => void,
  stopped: () => boolean,
): Promise<OpenedSink | undefined> {
  const place = sink.kind === 'file' ? await sink.placeOf(path) : sink.broken ? 'gone' : 'same';
  if (place === 'same') {
    writer.checkpoint();
    writer.resume();
    return undefined;
  }
  let reopened: OpenedSink;
  try {
    reopened = await reopenSink(path);
  } catch (error) {
    writer.pause(
      `reopen-failed: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
    return undefined;
  }
  // The server stopped while the file was being opened: nothing will write to it.
  if (stopped()) {
    reopened.close();
    return undefined;
  }
  if (place !== 'gone')
    warn(
      `uas: recording: ${path} was ${place}${place === 'deleted' ? ' (what was written to it since the last look, a second at most, counts as lost)' : ''}; recording to a new ${path}`,
    );
  writer.replaceSink(reopened, place === 'deleted' ? 'file-deleted' : undefined);
  return reopened;
}

function describeNews(news: RecordWriterNews, path: string, bufferBytes: number): string {
  switch (news.type) {
    case 'behind':
      return `uas: recording to ${path} falls behind: its buffer (${plural(bufferBytes, 'byte')}) is full, so requests are left out of it, counted (uas_recording_lost_records_total) and marked in it once it catches up`;
    case 'failed':
      return `uas: recording to ${path} failed: ${news.reason}; ${plural(news.lost, 'request')} lost so far`;
    case 'resumed':
      return `uas: recording to ${path} goes on; ${plural(news.lost, 'request')} lost so far (a loss line in it says when)`;
  }
}

/** The recording's counters in the Prometheus text format. */
function recordingMetrics(writer: RecordWriter<unknown>): string {
  const { written, lost, buffered } = writer.counts();
  return [
    '# HELP uas_recording_written_records_total Requests written to the --record file.',
    '# TYPE uas_recording_written_records_total counter',
    `uas_recording_written_records_total ${written}`,
    '# HELP uas_recording_lost_records_total Requests left out of the --record file (buffer full, write failed, file deleted).',
    '# TYPE uas_recording_lost_records_total counter',
    `uas_recording_lost_records_total ${lost}`,
    '# HELP uas_recording_buffered_records Requests waiting to be written to the --record file.',
    '# TYPE uas_recording_buffered_records gauge',
    `uas_recording_buffered_records ${buffered}`,
    '',
  ].join('\n');
}
