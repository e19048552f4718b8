import { escapeControls } from '../text/escape-controls.js';

/**
 * Text from the server made safe to draw on one line: a client may put control characters in a
 * caller_id, a path or anything else a request carries.
 */
export function screenText(text: string | number | undefined): string {
  return text === undefined ? '' : escapeControls(String(text), { keepNewlines: false });
}

/** `text` in exactly `width` cells: padded, or cut with an ellipsis. */
export function fit(text: string, width: number): string {
  if (width <= 0) return '';
  return text.length <= width ? text.padEnd(width) : `${text.slice(0, width - 1)}…`;
}

/**
 * `text` in exactly `width` cells: padded, or cut in the middle with an ellipsis, keeping its
 * start and its end (of a bucket key, the level and client, and the caller that tells two apart).
 */
export function fitMiddle(text: string, width: number): string {
  if (width <= 0) return '';
  if (text.length <= width) return text.padEnd(width);
  const tail = Math.floor((width - 1) / 2);
  return `${text.slice(0, width - 1 - tail)}…${tail === 0 ? '' : text.slice(-tail)}`;
}
