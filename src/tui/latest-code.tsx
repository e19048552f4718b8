import { Text } from 'ink';
import type { CodeRecord } from '../core/records/records.js';
import { screenText } from './screen-text.js';

/**
 * The latest one-time code the target issued, with whom it is for and when it expires (UTC, as
 * the request times): under `uas serve --tui` the request log that would print it is hidden.
 */
export function LatestCode({ code }: { code: CodeRecord }) {
  return (
    <Text wrap="truncate">
      latest code <Text bold>{screenText(code.code)}</Text> for {screenText(code.email)}, expires{' '}
      {screenText(code.expires_at.slice(11, 19))}
      <Text dimColor> (merchant {screenText(code.merchant_id)})</Text>
    </Text>
  );
}
