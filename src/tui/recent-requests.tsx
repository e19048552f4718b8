import { Box, Text } from 'ink';
import type { RequestRecord } from '../core/admin/records.js';

function statusColor(status: number): string {
  return status < 300 ? 'green' : status === 429 ? 'yellow' : 'red';
}

/** The latest requests: time, operation, caller, status, tokens left. */
export function RecentRequests({ records, rows }: { records: RequestRecord[]; rows: number }) {
  return (
    <Box flexDirection="column">
      <Text bold>recent requests</Text>
      {records.slice(0, rows).map((record) => (
        <Text key={record.id} wrap="truncate">
          <Text dimColor>{new Date(record.at).toISOString().slice(11, 23)}</Text>{' '}
          {(record.operation ?? record.method).padEnd(7)}{' '}
          {(
            record.caller_id ??
            (record.client_id === undefined ? '-' : `(client ${record.client_id})`)
          )
            .slice(0, 24)
            .padEnd(24)}{' '}
          <Text color={statusColor(record.status)}>{record.status}</Text>
          {record.remaining === undefined ? '' : ` ${record.remaining} left`}
        </Text>
      ))}
    </Box>
  );
}
