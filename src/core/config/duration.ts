import ms from 'ms';

/**
 * Parses a duration such as `"500ms"`, `"2s"`, `"10m"`, `"1h"` or a bare number of milliseconds.
 * Returns undefined when the text is not a duration, so callers can word their own error.
 */
export function parseDuration(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? input : undefined;
  const text = input.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  // `ms` accepts "1 minute", "2h"; a leading unit without a number ("s") means one of it.
  const value = ms((/^[a-z]/i.test(text) ? `1${text}` : text) as ms.StringValue);
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
