import ms from 'ms';

/** A number without a unit: "5", "2.5". */
const BARE_NUMBER = /^\d+(\.\d+)?$/;

/**
 * Parses a duration such as `"500ms"`, `"2s"`, `"10m"` or `"1h"`. A number without a unit (`"5"`,
 * or 5 in JSON) is no duration, since nothing says whether it means seconds or milliseconds; zero
 * alone is one, as it means the same in every unit. Returns undefined when the input is not a
 * duration, so callers can word their own error ({@link missingUnit} says what to write instead).
 */
export function parseDuration(input: string | number): number | undefined {
  if (typeof input === 'number') return input === 0 ? 0 : undefined;
  const text = input.trim();
  if (text === '') return undefined;
  if (BARE_NUMBER.test(text)) return Number(text) === 0 ? 0 : undefined;
  // `ms` accepts "1 minute", "2h"; a leading unit without a number ("s") means one of it.
  const value = ms((/^[a-z]/i.test(text) ? `1${text}` : text) as ms.StringValue);
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * What to write instead of a duration, or a range of two (`"50-200"`), given without its unit:
 * `give a unit, e.g. 5s or 5ms`. Undefined when every part has a unit (or is zero), or when the
 * input is not a number at all (the caller's own message says what a duration looks like).
 */
export function missingUnit(input: string | number): string | undefined {
  const parts = String(input)
    .split('-')
    .map((part) => part.trim());
  const bare = (part: string) => BARE_NUMBER.test(part) && Number(part) !== 0;
  if (parts.length > 2 || parts.includes('') || !parts.some(bare)) return undefined;
  const withUnit = (unit: string) =>
    parts.map((part) => (bare(part) ? `${part}${unit}` : part)).join('-');
  return `give a unit, e.g. ${withUnit('s')} or ${withUnit('ms')}`;
}
