const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = `(?<month>${MONTHS.join('|')})`;
const TIME = '(?<h>\\d{2}):(?<m>\\d{2}):(?<s>\\d{2})';
const HTTP_DATES = [
  // `Sun, 06 Nov 1994 08:49:37 GMT`: the form senders must use.
  new RegExp(`^${DAY}, (?<day>\\d{2}) ${MONTH} (?<year>\\d{4}) ${TIME} GMT$`),
  // `Sunday, 06-Nov-94 08:49:37 GMT`: obsolete, with a two-digit year.
  new RegExp(`^${LONG_DAY}, (?<day>\\d{2})-${MONTH}-(?<year>\\d{2}) ${TIME} GMT$`),
  // `Sun Nov  6 08:49:37 1994`: obsolete (C's asctime).
  new RegExp(`^${DAY} ${MONTH} (?<day>[ \\d]\\d) ${TIME} (?<year>\\d{4})$`),
];

/**
 * Parses an HTTP date (RFC 9110 section 5.6.7) in any of its three forms, strictly: `Date.parse`
 * would also take "1.5", "-5" or "junk 12" as dates. Milliseconds since the epoch, or undefined.
 */
export function parseHttpDate(text: string): number | undefined {
  const fields = HTTP_DATES.map((form) => form.exec(text)?.groups).find(Boolean);
  if (fields === undefined) return undefined;
  const [day, h, m, s] = [fields.day, fields.h, fields.m, fields.s].map(Number) as [
    number,
    number,
    number,
    number,
  ];
  const year = twoDigitYear(fields.year as string);
  const month = MONTHS.indexOf(fields.month as string);
  // 60 is a leap second: the grammar allows it, and Date folds it into the next minute.
  if (h > 23 || m > 59 || s > 60) return undefined;
  // setUTCFullYear, unlike Date.UTC, takes years below 100 as they are.
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  // Dates roll 31 Feb over into March: such a date is not one.
  if (date.getUTCDate() !== day) return undefined;
  return date.setUTCHours(h, m, s, 0);
}

/**
 * The year of an RFC 850 date's two digits. RFC 9110 reads them as the latest year with those
 * digits no more than 50 years ahead; this file reads no clock, so the window is fixed at
 * 1950-2049, which agrees with that rule until 2050. Four-digit years are returned as they are.
 */
function twoDigitYear(text: string): number {
  const year = Number(text);
  if (text.length !== 2) return year;
  return year < 50 ? 2000 + year : 1900 + year;
}
