import { Box, Text } from 'ink';
import type { BucketView } from '../core/limits/bucket-view.js';
import { shortDuration, tokenBar } from './sparkline.js';

const BAR = 10;

function fillColor(fraction: number): string {
  return fraction > 0.5 ? 'green' : fraction > 0.2 ? 'yellow' : 'red';
}

/** The bucket table: only the rows that fit are rendered, so thousands of buckets stay smooth. */
export function BucketTable({
  buckets,
  selected,
  rows,
  columns,
}: {
  buckets: BucketView[];
  selected: number;
  rows: number;
  columns: number;
}) {
  const keyWidth = Math.max(12, columns - (BAR + 1 + 7 + 6 + 8 + 8 + 6 + 7 + 1));
  const first = Math.max(0, Math.min(selected - rows + 1, buckets.length - rows));
  const visible = buckets.slice(first, first + rows);
  // Each cell is padded to its width and followed by one space.
  const cell = (text: string | number, width: number) =>
    `${String(text).slice(0, width).padEnd(width)} `;
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">
        {cell('BUCKET', keyWidth - 1)}
        {cell('TOKENS', BAR)}
        {cell('LEVEL', 6)}
        {cell('BURST', 5)}
        {cell('RATE', 7)}
        {cell('ALLOWED', 7)}
        {cell('429', 5)}
        {cell('NEXT', 6)}
      </Text>
      {visible.length === 0 ? (
        <Text dimColor>no buckets yet: every bucket is full until a request uses it</Text>
      ) : null}
      {visible.map((bucket, index) => {
        const fraction = bucket.tokens / bucket.burst;
        const bar = tokenBar(fraction, BAR);
        const isSelected = first + index === selected;
        return (
          <Text key={bucket.key} inverse={isSelected} wrap="truncate">
            {cell(bucket.key, keyWidth - 1)}
            <Text color={fillColor(fraction)}>{bar.filled}</Text>
            <Text dimColor>{bar.empty}</Text> {cell(bucket.level, 6)}
            {cell(bucket.burst, 5)}
            {cell(bucket.rate, 7)}
            {cell(bucket.allowed, 7)}
            <Text color={bucket.rejected > 0 ? 'yellow' : undefined}>
              {cell(bucket.rejected, 5)}
            </Text>
            {cell(bucket.next_token_ms === 0 ? 'full' : shortDuration(bucket.next_token_ms), 6)}
          </Text>
        );
      })}
    </Box>
  );
}
