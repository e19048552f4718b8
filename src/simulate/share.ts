/**
 * The share `part / whole` as a fraction with four decimals, for reports: 1 only when the part
 * is the whole, 0 only when it is nothing (rounding moves a near-miss to 0.9999 or 0.0001, never
 * onto the ends), and 0 for a whole of 0.
 */
export function shareOf(part: number, whole: number): number {
  if (whole === 0 || part === 0) return 0;
  if (part === whole) return 1;
  return Math.min(0.9999, Math.max(0.0001, Math.round((part / whole) * 10_000) / 10_000));
}

/**
 * The share `part / whole` as a percentage with one decimal, computed from the two counts it
 * stands for: `"100.0%"` only when the part is the whole, `"0.0%"` only when it is nothing, and
 * `">99.9%"` or `"<0.1%"` when rounding would say otherwise. Undefined for a whole of 0.
 */
export function formatShare(part: number, whole: number): string | undefined {
  if (whole === 0) return undefined;
  if (part === whole) return '100.0%';
  if (part === 0) return '0.0%';
  const percent = ((part / whole) * 100).toFixed(1);
  if (percent === '100.0') return '>99.9%';
  if (percent === '0.0') return '<0.1%';
  return `${percent}%`;
}
