import { plural } from './check-rule.js';

/**
 * Records a recording could not keep, as `uas serve --record` writes them into the file at the
 * first write after the loss: one NDJSON line,
 * `{"uas_recording":"loss","lost":12,"from":"…","to":"…","reason":"buffer-full"}`. `from` and
 * `to` are the times (the emulator's clock) of the first and last request lost; `reason` names
 * the causes, comma-separated: `buffer-full` (the file or its reader took lines more slowly than
 * requests came), `write-failed: <code>` (such as ENOSPC or EPIPE), `file-deleted` (lines written
 * to the file after it was deleted), `reopen-failed: <code>`, `unformattable` (a record that
 * could not be serialised), `cut-short` (the last line of a run before, cut short: a later run
 * appending to the file ended it).
 */
export interface RecordingLoss {
  lost: number;
  /** ISO 8601. */
  from: string;
  /** ISO 8601. */
  to: string;
  reason: string;
}

/** The value of `uas_recording` that marks a loss. */
const LOSS = 'loss';

/** The most characters of `reason` a marker may have (it is printed in reports). */
const REASON_MAX = 200;

/** The marker line of a loss, newline included. */
export function formatLossMarker(loss: RecordingLoss): string {
  const { lost, from, to, reason } = loss;
  return `${JSON.stringify({ uas_recording: LOSS, lost, from, to, reason })}\n`;
}

/** Whether a line of a recording is a loss marker (as written; read it with {@link readLossMarker}). */
export function isLossMarkerLine(line: string): boolean {
  return line.startsWith('{"uas_recording":');
}

/**
 * A parsed line of a recording read as a marker: undefined when it is not one (no
 * `uas_recording` field: a request record, or something else), the loss when it is a valid one,
 * or why it is not (a text) when it claims to be a marker but does not fit.
 */
export function readLossMarker(value: unknown): RecordingLoss | string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if (!Object.hasOwn(value, 'uas_recording')) return undefined;
  const { uas_recording: kind, lost, from, to, reason } = value as Record<string, unknown>;
  if (kind !== LOSS) return `uas_recording must be "${LOSS}"`;
  if (typeof lost !== 'number' || !Number.isSafeInteger(lost) || lost < 0)
    return 'lost must be a whole number, 0 or more';
  for (const [name, time] of [
    ['from', from],
    ['to', to],
  ] as const)
    if (typeof time !== 'string' || time.length > 40 || Number.isNaN(Date.parse(time)))
      return `${name} must be an ISO 8601 time`;
  if (typeof reason !== 'string' || reason.length > REASON_MAX)
    return `reason must be a text of at most ${REASON_MAX} characters`;
  return { lost, from: from as string, to: to as string, reason };
}

/**
 * One sentence on what a recording lost, for every report format; undefined when it lost
 * nothing. Unescaped: `reason` comes from the file.
 */
export function describeLosses(losses: readonly RecordingLoss[]): string | undefined {
  const lost = losses.reduce((sum, loss) => sum + loss.lost, 0);
  if (lost === 0) return undefined;
  const times = losses.filter((loss) => loss.lost > 0).flatMap((loss) => [loss.from, loss.to]);
  times.sort((a, b) => Date.parse(a) - Date.parse(b));
  const reasons = [
    ...new Set(
      losses.flatMap((loss) => (loss.lost > 0 ? loss.reason.split(/,\s*/) : [])).filter(Boolean),
    ),
  ];
  return `the recording lost ${plural(lost, 'request')} between ${times[0]} and ${times.at(-1)} (${reasons.join(', ') || 'no reason given'}; ${plural(losses.length, 'loss marker')}); they are not judged`;
}
