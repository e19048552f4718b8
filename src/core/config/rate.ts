import { parseDuration } from './duration.js';

/** A refill rate: `tokens` added evenly over `windowMs`. */
export interface Rate {
  tokens: number;
  windowMs: number;
}

// Spaces only: a rate's text is shown as written (banner, buckets, uas top), where a line break,
// a tab or a carriage return would break the line it is on.
const RATE_PATTERN = /^ *(\d+(?:\.\d+)?) *\/ *([0-9.]* *[a-z]+) *$/i;

/**
 * Parses `"10/s"`, `"100/m"`, `"5/10s"`, `"1/500ms"`. Returns undefined when the text is not a
 * rate, so callers can name the field in their own error.
 */
export function parseRate(text: string): Rate | undefined {
  const match = RATE_PATTERN.exec(text);
  if (!match) return undefined;
  const tokens = Number(match[1]);
  const windowMs = parseDuration(match[2] ?? '');
  if (!(tokens > 0) || windowMs === undefined || !(windowMs > 0)) return undefined;
  return { tokens, windowMs };
}

/** Tokens added per millisecond. */
export function refillPerMs(rate: Rate): number {
  return rate.tokens / rate.windowMs;
}

/** Formats a rate back into the `"n/window"` form. */
export function formatRate(rate: Rate): string {
  const unit =
    rate.windowMs === 1000
      ? 's'
      : rate.windowMs === 60_000
        ? 'm'
        : rate.windowMs === 3_600_000
          ? 'h'
          : `${rate.windowMs}ms`;
  return `${rate.tokens}/${unit}`;
}
