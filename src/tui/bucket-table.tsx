import { Box, Text } from 'ink';
import type { BucketView } from '../core/limits/bucket-view.js';
import { fit, screenText } from './screen-text.js';
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

function fillColor(fraction: number): string {
  return fraction > 0.5 ? 'green' : fraction > 0.2 ? 'yellow' : 'red';
}

/** The width of the key column: the longest key shown, within bounds and the terminal's width. */
export function keyWidth(keys: readonly string[], columns: number): number {
  const longest = Math.max(0, ...keys.map((key) => key.length));
  return Math.max(KEY_MIN, Math.min(longest, KEY_MAX, columns - AFTER_KEY - 1));
}

/**
 * What the table says when it has no row: that there are no buckets only once a list was read
 * and said so; while the dev API cannot be read, that they are not known.
 */
export function emptyText(state: TuiState): string {
  if (state.connection === 'lost') return 'buckets not known: the dev API cannot be read';
  if (state.bucketsProblem !== undefined) return `buckets not known: ${state.bucketsProblem}`;
  if (!state.bucketsRead) return 'reading the buckets…';
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
  const width = keyWidth(
    visible.map((row) => row.key),
    columns,
  );
  // Each cell is padded to its width and followed by one space; numbers are never cut.
  const cell = (text: string, size: number) => `${fit(text, size)} `;
  const count = (value: number, size: number) => `${String(value).padEnd(size)} `;
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">
        {cell('BUCKET', width)}
        {cell('TOKENS', BAR)}
        {cell('LEVEL', LEVEL)}
        {cell('BURST', BURST)}
        {cell('RATE', RATE)}
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
            {cell(key, width)}
            <Text color={fillColor(fraction)}>{bar.filled}</Text>
            <Text dimColor>{bar.empty}</Text> {cell(screenText(bucket.level), LEVEL)}
            {count(bucket.burst, BURST)}
            {cell(screenText(bucket.rate), RATE)}
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
