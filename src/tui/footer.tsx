import { Box, Text } from 'ink';
import { screenText } from './screen-text.js';
import type { TuiState } from './tui-state.js';

/** The keys, or the filter being typed, and the latest notice. */
export function Footer({ state }: { state: TuiState }) {
  if (state.editingFilter) {
    return (
      <Text>
        filter: <Text color="cyan">{screenText(state.filter)}</Text>
        <Text dimColor>▏ (enter keeps it, esc clears it)</Text>
      </Text>
    );
  }
  return (
    <Box>
      <Text wrap="truncate">
        {state.notice === undefined ? '' : <Text color="cyan">{screenText(state.notice)} · </Text>}
        {state.filter === '' ? (
          ''
        ) : (
          <Text color="cyan">filter "{screenText(state.filter)}" · </Text>
        )}
        <Text dimColor>
          q quit · ↑↓ select · r/R reset one/all · p pause · / filter · s sort · ? help
        </Text>
      </Text>
    </Box>
  );
}

/** The help screen. */
export function Help() {
  const lines: Array<[string, string]> = [
    ['q, ctrl-c', 'quit'],
    ['↑ ↓ (k j)', 'select a bucket'],
    ['r', 'reset the selected bucket (it is full again)'],
    ['R', 'reset every bucket'],
    ['p', 'pause: freeze the screen (totals keep counting); what came shows on resume'],
    ['/', 'filter buckets by key; enter keeps the filter, esc clears it'],
    ['s', 'change the sort: pressure (emptiest first), recent, rejected, key'],
    ['?', 'this help (esc or ? closes it)'],
  ];
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>keys</Text>
      {lines.map(([key, text]) => (
        <Text key={key}>
          <Text color="cyan">{key.padEnd(10)}</Text> {text}
        </Text>
      ))}
      <Text dimColor>
        Token bars: green above half full, yellow above a fifth, red below. NEXT: time to the next
        token.
      </Text>
    </Box>
  );
}
