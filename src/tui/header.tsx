import { Box, Text } from 'ink';
import { pluralize } from '../text/pluralize.js';
import { completeSeconds, currentRates, RATE_WINDOW, type TuiState } from './tui-state.js';
import { screenText } from './screen-text.js';
import { shortDuration, sparkline } from './sparkline.js';

/** The totals as the header shows them, with what they leave out. */
export function totalsText(state: TuiState): string {
  const { requests, rejected } = state.totals;
  const since = state.countedFrom === undefined ? '' : ` since #${state.countedFrom}`;
  const missed = state.missed === 0 ? '' : `, ${state.missed} missed`;
  return `totals ${requests} req, ${rejected} 429${since}${missed}`;
}

/** Target, connection, uptime, rates with a sparkline, and totals. */
export function Header({
  state,
  label,
  title,
  columns,
}: {
  state: TuiState;
  label: string;
  title: string;
  columns: number;
}) {
  const rates = currentRates(state);
  // The uptime last read stands still once the emulator is not reached (gone, or restarted
  // needing an admin token): it is left out rather than said as if current. It is read with the
  // bucket list, so it stays while that list is read (the event stream alone refused).
  // Waiting does not mend a missing or refused admin token, nor soon a server whose event
  // readers are all taken: the advice takes the second line, whole, where the rates (which stand
  // still meanwhile) would cut it at 80 columns.
  const adviceLine = state.connection === 'lost' && (state.needsAdminToken || state.readersFull);
  const connection =
    state.connection === 'connected' ? (
      <Text color="green">● connected</Text>
    ) : state.connection === 'connecting' ? (
      <Text color="yellow">○ connecting</Text>
    ) : adviceLine ? (
      <Text color="red">✖ not connected</Text>
    ) : (
      <Text color="red">✖ connection lost ({screenText(state.problem)}); reconnecting</Text>
    );
  const rateText = `${rates.requests} req/s ${rates.rejected} 429/s `;
  // No count of buckets before one is read: "0 buckets" would say the emulator has none.
  const count = state.bucketsRead ? pluralize(state.totalBuckets, 'bucket') : '? buckets';
  const rest = `  ${totalsText(state)} · ${count}, by ${state.sort}`;
  // The sparkline gets the room the figures leave, up to the rate window, and keeps its width
  // (blank on the left) while the first seconds fill it.
  const width = Math.max(0, Math.min(RATE_WINDOW, columns - rateText.length - rest.length));
  const chart = width === 0 ? '' : sparkline(completeSeconds(state).slice(-width)).padStart(width);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        <Text bold>{title}</Text> {screenText(label)} {connection}
        {state.uptimeMs === undefined || (state.connection === 'lost' && !state.bucketsRead)
          ? ''
          : `  up ${shortDuration(state.uptimeMs)}`}
        {state.paused ? <Text color="yellow"> [paused]</Text> : ''}
      </Text>
      {adviceLine ? (
        <Text wrap="truncate" color="red">
          {screenText(state.problem)}
        </Text>
      ) : (
        <Text wrap="truncate">
          {rates.requests} req/s{' '}
          <Text color={rates.rejected > 0 ? 'yellow' : undefined}>{rates.rejected} 429/s</Text>{' '}
          <Text color="cyan">{chart}</Text>
          {rest}
        </Text>
      )}
    </Box>
  );
}
