/**
 * `YYYY-MM-DD`, optionally followed by `THH:MM`, seconds, a fraction and a zone (`Z`, `+HH:MM` or
 * `+HHMM`): the ISO 8601 forms a clock time is given in.
 */
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?$/;

/** Days in each month of a year that is not a leap year. */
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

function daysIn(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

/**
 * An ISO 8601 time as ms since the epoch, or undefined when the text is not one: a day that the
 * month does not have (`2026-02-30`), an hour past 23 or a minute or second past 59 is not one
 * either, though `Date.parse` would roll it over into the next month, day or hour. A time without a
 * zone is read as `Date.parse` reads it (a date alone in UTC, a date and time in local time).
 */
export function parseIsoTime(text: string): number | undefined {
  const match = ISO_TIME.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second, zoneHours, zoneMinutes] = match
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part)));
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysIn(year!, month!)) return undefined;
  if (hour! > 23 || minute! > 59 || second! > 59 || zoneHours! > 23 || zoneMinutes! > 59)
    return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}
