const BARS = '▁▂▃▄▅▆▇█';

/** A one-line chart of values, scaled to their maximum. */
export function sparkline(values: number[]): string {
  const max = Math.max(0, ...values);
  return values
    .map((value) =>
      max === 0
        ? BARS[0]
        : BARS[Math.min(BARS.length - 1, Math.round((value / max) * (BARS.length - 1)))],
    )
    .join('');
}

/** A bar of `width` cells filled to `fraction`. */
export function tokenBar(fraction: number, width: number): { filled: string; empty: string } {
  const cells = Math.max(0, Math.min(width, Math.round(fraction * width)));
  return { filled: '█'.repeat(cells), empty: '░'.repeat(width - cells) };
}

/** Milliseconds as "250ms", "1.5s", "2m3s". */
export function shortDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes}m${Math.floor((ms % 60_000) / 1000)}s`;
  return `${Math.floor(minutes / 60)}h${minutes % 60}m`;
}
