import { Box, Text } from 'ink';
import type { RequestRecord } from '../core/records/records.js';
import { cutNote } from './cut-note.js';
import { fit, fitMiddle, screenText } from './screen-text.js';

function statusColor(status: number): string {
  return status < 300 ? 'green' : status === 429 ? 'yellow' : 'red';
}

/** The caller column: at least 24 cells, more on a wide terminal, at most 48. */
export function callerWidth(columns: number): number {
  return Math.max(24, Math.min(48, columns - 56));
}

/** Who sent a request: its caller_id, else its client. */
function caller(record: RequestRecord): string {
  if (record.caller_id !== undefined) return screenText(record.caller_id);
  return record.client_id === undefined ? '-' : `(client ${screenText(record.client_id)})`;
}

/**
 * The latest requests: time, operation (or method and path when it matched none), caller,
 * status, tokens left, the problem of an error other than 429, and an answer cut short.
 */
export function RecentRequests({
  records,
  rows,
  columns,
}: {
  records: readonly RequestRecord[];
  rows: number;
  columns: number;
}) {
  const width = callerWidth(columns);
  return (
    <Box flexDirection="column">
      <Text bold>recent requests</Text>
      {records.slice(0, rows).map((record, index) => (
        <Text key={index} wrap="truncate">
          <Text dimColor>{new Date(record.at).toISOString().slice(11, 23)}</Text>{' '}
          {fit(screenText(record.operation ?? record.method), 7)} {fitMiddle(caller(record), width)}{' '}
          <Text color={statusColor(record.status)}>{record.status}</Text>
          {record.remaining === undefined ? '' : ` ${record.remaining} left`}
          {record.problem === undefined || record.status === 429
            ? ''
            : ` ${screenText(record.problem)}`}
          {record.operation === undefined ? ` ${screenText(record.path)}` : ''}
          <Text color="red">{cutNote(record)}</Text>
        </Text>
      ))}
    </Box>
  );
}
