import type { ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import type { BucketView } from '../core/limits/bucket-view.js';
import type { RequestRecord } from '../core/records/records.js';
import type { TuiSource } from './tui-source.js';
import { cutNote } from './cut-note.js';
import { screenText } from './screen-text.js';
import { shortDuration } from './sparkline.js';
import { pluralize } from '../text/pluralize.js';

/** One look at a target, for pipes and `--once`. */
export interface Snapshot {
  target: string;
  uptime_ms: number | null;
  total_buckets: number;
  buckets: BucketView[];
  recent: RequestRecord[];
}

/** Reads the buckets and the latest requests once. */
export async function takeSnapshot(source: TuiSource, limit = 50): Promise<Snapshot> {
  const [list, recent, uptime] = await Promise.all([
    source.listBuckets({ sort: 'pressure', limit }),
    source.recent(20),
    source.uptime(),
  ]);
  return {
    target: source.label,
    uptime_ms: uptime ?? null,
    total_buckets: list.total,
    buckets: list.buckets,
    recent,
  };
}

/** The snapshot as text: a bucket table and the latest requests. */
export function formatSnapshot(snapshot: Snapshot, chalk: ChalkInstance): string {
  const table = new Table({
    head: ['bucket', 'level', 'tokens', 'burst', 'rate', 'allowed', '429', 'next token'].map(
      (cell) => chalk.bold(cell),
    ),
    style: { head: [], border: [] },
  });
  for (const bucket of snapshot.buckets) {
    table.push([
      screenText(bucket.key),
      screenText(bucket.level),
      bucket.tokens.toFixed(2),
      bucket.burst,
      screenText(bucket.rate),
      bucket.allowed,
      bucket.rejected,
      bucket.next_token_ms === 0 ? 'full' : shortDuration(bucket.next_token_ms),
    ]);
  }
  const uptime = snapshot.uptime_ms === null ? '' : `, up ${shortDuration(snapshot.uptime_ms)}`;
  const lines = [
    `${screenText(snapshot.target)}${uptime}: ${pluralize(snapshot.total_buckets, 'bucket')} (${snapshot.buckets.length} shown, emptiest first)`,
    table.toString(),
  ];
  if (snapshot.recent.length > 0) {
    lines.push('recent requests:');
    for (const record of snapshot.recent) {
      lines.push(
        `  ${new Date(record.at).toISOString().slice(11, 23)} ${screenText(record.method)} ${screenText(record.path)} ${screenText(record.bucket ?? '-')} ${record.status}${record.remaining === undefined ? '' : ` ${record.remaining} left`}${record.problem === undefined ? '' : ` ${screenText(record.problem)}`}${cutNote(record)}`,
      );
    }
  }
  return lines.join('\n');
}
