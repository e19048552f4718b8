import type { ModeReport } from './simulation-report.js';

/** Eight heights, lowest first: `▁` is no sign-in succeeded, `█` all of them. */
const HEIGHTS = '▁▂▃▄▅▆▇█';

/** The cell of a share: `▁` only for 0, `█` only for 1, the six between for the rest. */
function cellOf(share: number): string {
  if (share <= 0) return HEIGHTS[0] as string;
  if (share >= 1) return HEIGHTS[7] as string;
  return HEIGHTS[1 + Math.min(5, Math.floor(share * 6))] as string;
}

/** A share as a whole percentage: 100% only for all, 0% only for none. */
function percent(share: number): string {
  if (share <= 0) return '0%';
  if (share >= 1) return '100%';
  return `${Math.min(99, Math.max(1, Math.round(share * 100)))}%`;
}

/**
 * The chart without colour: one row per mode, one cell per time bin, its height the share of
 * sign-ins that succeeded, then the lowest and the last share in figures. Lines of a plot without
 * colour hide each other where modes agree (two modes at 100% draw one line); rows cannot.
 */
export function shareStrips(
  modes: ReadonlyArray<Pick<ModeReport, 'mode'>>,
  shares: ReadonlyArray<readonly number[]>,
  binSeconds: number,
): string[] {
  const width = Math.max(10, ...modes.map((mode) => mode.mode.length));
  const bins = Math.max(0, ...shares.map((values) => values.length));
  const rows = modes.map((mode, index) => {
    const values = shares[index] ?? [];
    // No share (no sign-in ended): a blank strip, so the figures stay in their column.
    const strip = values.length === 0 ? ' '.repeat(bins) : values.map(cellOf).join('');
    const figures =
      values.length === 0
        ? 'no sign-in ended'
        : `lowest ${percent(Math.min(...values))}, last ${percent(values[values.length - 1] as number)}`;
    return `${mode.mode.padEnd(width)}  ${strip}  ${figures}`;
  });
  const legend = `${' '.repeat(width)}  ▁ none, ▂ to ▇ some, █ all; one cell per ${binSeconds} s`;
  return [...rows, legend];
}
