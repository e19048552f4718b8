import { Box, Text } from 'ink';
import { currentRates, type TuiState } from './tui-state.js';
import { shortDuration, sparkline } from './sparkline.js';

/** Target, connection, uptime, rates with a sparkline, and totals. */
export function Header({ state, label, title }: { state: TuiState; label: string; title: string }) {
  const rates = currentRates(state);
  const connection =
    state.connection === 'connected' ? (
      <Text color="green">● connected</Text>
    ) : state.connection === 'connecting' ? (
      <Text color="yellow">○ connecting</Text>
    ) : (
      <Text color="red">✖ connection lost ({state.problem}); reconnecting</Text>
    );
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        <Text bold>{title}</Text> {label} {connection}
        {state.uptimeMs === undefined ? '' : `  up ${shortDuration(state.uptimeMs)}`}
        {state.paused ? <Text color="yellow"> [paused]</Text> : ''}
      </Text>
      <Text wrap="truncate">
        {rates.requests} req/s{' '}
        <Text color={rates.rejected > 0 ? 'yellow' : undefined}>{rates.rejected} 429/s</Text>{' '}
        <Text color="cyan">{sparkline(state.rates.map((slot) => slot.requests))}</Text>
        {'  '}totals {state.totals.requests} req, {state.totals.rejected} 429 · {state.totalBuckets}{' '}
        buckets, by {state.sort}
      </Text>
    </Box>
  );
}
