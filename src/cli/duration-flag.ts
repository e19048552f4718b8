import { MAX_TIMER_MS } from '../client/sleep.js';
import { missingUnit, parseDuration } from '../core/config/duration.js';
import { CliError } from './io.js';

/**
 * Parses a duration flag ("500ms", "30s", "2m"; a number without a unit is refused), at most what a timer can hold (2^31-1 ms, about
 * 24.8 days: Node would fire a longer one at once), in whole milliseconds (a fraction rounded up);
 * `aboveZero` refuses 0.
 */
export function durationFlag(flag: string, text: string, aboveZero = false): number {
  const unit = missingUnit(text);
  if (unit !== undefined)
    throw new CliError(`invalid ${flag}: ${unit}; got ${JSON.stringify(text)}`);
  const value = parseDuration(text);
  if (value === undefined)
    throw new CliError(
      `invalid ${flag}: expected a duration such as "500ms", "30s" or "2m"; got ${JSON.stringify(text)}`,
    );
  if (value > MAX_TIMER_MS)
    throw new CliError(
      `invalid ${flag}: expected at most ${MAX_TIMER_MS} ms (about 24.8 days, the longest a timer can hold); got ${JSON.stringify(text)}`,
    );
  if (aboveZero && value === 0)
    throw new CliError(`invalid ${flag}: expected a duration above zero, such as "10s"`);
  // A timer holds whole milliseconds: "1.5ms" is the next one up, never a delay no timer takes.
  return Math.ceil(value);
}
