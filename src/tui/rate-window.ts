import type { RequestRecord } from '../core/records/records.js';

/** Seconds of request rates kept for the sparkline. */
export const RATE_WINDOW = 30;

/** Requests and 429s the screen received in one second of its clock. */
export interface RateSlot {
  readonly second: number;
  readonly requests: number;
  readonly rejected: number;
}

/**
 * The window moved on to the second of `now`, with empty seconds in between; the same array when
 * `now` falls in its last second or before.
 */
export function moveRateWindow(rates: readonly RateSlot[], now: number): readonly RateSlot[] {
  const second = Math.floor(now / 1000);
  const last = rates[rates.length - 1];
  if (last !== undefined && last.second >= second) return rates;
  // Only the window is kept, so a clock that jumps far ahead adds at most the window.
  const from = Math.max(last === undefined ? second : last.second + 1, second - RATE_WINDOW);
  const added: RateSlot[] = [];
  for (let slot = from; slot <= second; slot++)
    added.push({ second: slot, requests: 0, rejected: 0 });
  return [...rates, ...added].slice(-(RATE_WINDOW + 1));
}

/** The rates with `records` counted in the second of `now` (a new slot object, never a changed one). */
export function addRates(
  rates: readonly RateSlot[],
  now: number,
  records: readonly RequestRecord[],
): readonly RateSlot[] {
  const second = Math.floor(now / 1000);
  const index = rates.findIndex((slot) => slot.second === second);
  // A second already out of the window (the clock went back) is counted in the totals only.
  if (index < 0) return rates;
  const slot = rates[index] as RateSlot;
  const next = [...rates];
  next[index] = {
    second,
    requests: slot.requests + records.length,
    rejected: slot.rejected + rejectedIn(records),
  };
  return next;
}

/** How many of `records` were answered 429. */
export function rejectedIn(records: readonly RequestRecord[]): number {
  let rejected = 0;
  for (const record of records) if (record.status === 429) rejected++;
  return rejected;
}

/** Requests and 429s in the last complete second (the one before the second in progress). */
export function currentRates({ rates }: { rates: readonly RateSlot[] }): {
  requests: number;
  rejected: number;
} {
  const last = rates[rates.length - 2];
  return { requests: last?.requests ?? 0, rejected: last?.rejected ?? 0 };
}

/** Requests per complete second, oldest first: what the sparkline draws. */
export function completeSeconds({ rates }: { rates: readonly RateSlot[] }): number[] {
  return rates.slice(0, -1).map((slot) => slot.requests);
}
