import { Box, Text } from 'ink';
import type { BucketView } from '../core/limits/bucket-view.js';
import { cellWidth, fit, fitMiddle, screenText } from './screen-text.js';
import { shortDuration, tokenBar } from './sparkline.js';
import type { TuiState } from './tui-state.js';

const BAR = 10;
/** The widths of the cells after the key (each followed by a space): token bar to NEXT. */
const LEVEL = 6;
const BURST = 5;
const RATE = 7;
const ALLOWED = 7;
const REJECTED = 5;
const NEXT = 6;
const AFTER_KEY = BAR + LEVEL + BURST + RATE + ALLOWED + REJECTED + NEXT + 7;
/** The key column is as wide as the longest key shown, within these bounds. */
export const KEY_MIN = 12;
export const KEY_MAX = 60;

/** Columns that give way to the key on a narrow terminal, first to last, with their widths. */
const GIVE_WAY = [
  ['level', LEVEL],
  ['rate', RATE],
  ['burst', BURST],
] as const;
/** A column that may give way. */
export type OptionalColumn = (typeof GIVE_WAY)[number][0];
/**
 * Columns give way until the key has this many cells (or as many as its longest needs): enough
 * for `caller:demo:203.0.113.7`.
 */
const KEY_ROOM = 24;

/** The width of the key column, and the columns left out to make room for it. */
export interface TableLayout {
  keyWidth: number;
  hidden: ReadonlySet<OptionalColumn>;
}

/**
 * The key column is as wide as the longest key shown, within bounds and the terminal's width; on
 * a narrow terminal LEVEL (which the key's prefix says too), then RATE, then BURST give way
 * until it has room, so that a row never runs past the edge at 60 columns; a key longer still is
 * cut in the middle.
 */
export function tableLayout(keys: readonly string[], columns: number): TableLayout {
  const longest = Math.max(0, ...keys.map(cellWidth));
  const wanted = Math.max(KEY_MIN, Math.min(longest, KEY_ROOM));
  const hidden = new Set<OptionalColumn>();
  let after = AFTER_KEY;
  for (const [column, width] of GIVE_WAY) {
    if (columns - after - 1 >= wanted) break;
    hidden.add(column);
    after -= width + 1;
  }
  return {
    keyWidth: Math.max(KEY_MIN, Math.min(longest, KEY_MAX, columns - after - 1)),
    hidden,
  };
}

function fillColor(fraction: number): string {
  return fraction > 0.5 ? 'green' : fraction > 0.2 ? 'yellow' : 'red';
}

/**
 * What the table says when it has no row: that there are no buckets only once a list was read
 * and said so; while the dev API cannot be read, that they are not known. A server whose event
 * readers are all taken still answers the bucket list: its answer is said as any other.
 */
export function emptyText(state: TuiState): string {
  if (state.connection === 'lost' && !(state.readersFull && state.bucketsRead))
    return 'buckets not known: the dev API cannot be read';
  if (state.bucketsProblem !== undefined) return `buckets not known: ${state.bucketsProblem}`;
  if (!state.bucketsRead) return 'reading the buckets…';
  if (state.filter !== '') return `no bucket matches "${state.filter}"`;
  return 'no buckets yet: every bucket is full until a request uses it';
}

/** The bucket table: only the rows that fit are rendered, so thousands of buckets stay smooth. */
export function BucketTable({
  buckets,
  selected,
  rows,
  columns,
  empty,
}: {
  buckets: readonly BucketView[];
  selected: number;
  rows: number;
  columns: number;
  /** What to say when there is no row (see {@link emptyText}). */
  empty: string;
}) {
  const first = Math.max(0, Math.min(selected - rows + 1, buckets.length - rows));
  const visible = buckets.slice(first, first + rows).map((bucket) => ({
    bucket,
    key: screenText(bucket.key),
  }));
  const { keyWidth: width, hidden } = tableLayout(
    visible.map((row) => row.key),
    columns,
  );
  // Each cell is padded to its width and followed by one space; numbers are never cut.
  const cell = (text: string, size: number) => `${fit(text, size)} `;
  const count = (value: number, size: number) => `${String(value).padEnd(size)} `;
  // A key cut short keeps its start (level, client) and its end (the caller): `caller:d…0.113.7`.
  const keyCell = (text: string) => `${fitMiddle(text, width)} `;
  const shown = (column: OptionalColumn, text: string) => (hidden.has(column) ? '' : text);
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">
        {cell('BUCKET', width)}
        {cell('TOKENS', BAR)}
        {shown('level', cell('LEVEL', LEVEL))}
        {shown('burst', cell('BURST', BURST))}
        {shown('rate', cell('RATE', RATE))}
        {cell('ALLOWED', ALLOWED)}
        {cell('429', REJECTED)}
        {cell('NEXT', NEXT)}
      </Text>
      {visible.length === 0 ? (
        <Text dimColor wrap="truncate">
          {screenText(empty)}
        </Text>
      ) : null}
      {visible.map(({ bucket, key }, index) => {
        const fraction = bucket.tokens / bucket.burst;
        const bar = tokenBar(fraction, BAR);
        const isSelected = first + index === selected;
        return (
          <Text key={bucket.key} inverse={isSelected} wrap="truncate">
            {keyCell(key)}
            <Text color={fillColor(fraction)}>{bar.filled}</Text>
            <Text dimColor>{bar.empty}</Text>{' '}
            {shown('level', cell(screenText(bucket.level), LEVEL))}
            {shown('burst', count(bucket.burst, BURST))}
            {shown('rate', cell(screenText(bucket.rate), RATE))}
            {count(bucket.allowed, ALLOWED)}
            <Text color={bucket.rejected > 0 ? 'yellow' : undefined}>
              {count(bucket.rejected, REJECTED)}
            </Text>
            {cell(bucket.next_token_ms === 0 ? 'full' : shortDuration(bucket.next_token_ms), NEXT)}
          </Text>
        );
      })}
    </Box>
  );
}
