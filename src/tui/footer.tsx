import { Box, Text } from 'ink';
import { screenText } from './screen-text.js';
import type { TuiState } from './tui-state.js';

/** What the keys do on a screen: a simulation's may not reset buckets, and its pause holds the run. */
export interface ScreenKeys {
  /** Whether r and R reset buckets (off in a simulation, whose results a reset would change). */
  canReset: boolean;
  /** Whether p holds the target's traffic too (a simulation), not only the screen. */
  holdsRun: boolean;
}

/** The keys, or the filter being typed, and the latest notice. */
export function Footer({ state, keys }: { state: TuiState; keys: ScreenKeys }) {
  if (state.editingFilter) {
    return (
      <Text wrap="truncate">
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
          {keys.canReset
            ? 'q quit · ↑↓ select · r/R reset one/all · p pause · / filter · s sort · ? help'
            : 'q quit · ↑↓ select · p pause · / filter · s sort · ? help · r/R off (simulation)'}
        </Text>
      </Text>
    </Box>
  );
}

/** A key of the help screen and what it does. */
type KeyLine = [key: string, text: string];

const RESET_KEYS: KeyLine[] = [
  ['r', 'reset the selected bucket (it is full again)'],
  ['R', 'reset every bucket'],
];
const NO_RESET_KEYS: KeyLine[] = [['r, R', "off: a reset would change the simulation's results"]];

/** The help screen. */
export function Help({ keys }: { keys: ScreenKeys }) {
  const lines: KeyLine[] = [
    ['q, ctrl-c', 'quit'],
    ['↑ ↓ (k j)', 'select a bucket'],
    ...(keys.canReset ? RESET_KEYS : NO_RESET_KEYS),
    keys.holdsRun
      ? ['p', 'pause the simulation: no request is sent and simulated time stops until p']
      : ['p', 'pause: freeze the screen (totals keep counting); what came shows on resume'],
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
