import { escapeControls } from '../text/escape-controls.js';

/**
 * Text from the server made safe to draw on one line: a client may put control characters in a
 * caller_id, a path or anything else a request carries.
 */
export function screenText(text: string | number | undefined): string {
  return text === undefined ? '' : escapeControls(String(text), { keepNewlines: false });
}

/** A mark drawn on the character before it, a joiner or a variation selector: no cell. */
const NO_CELL = /^(?:\p{Mn}|\p{Me}|\u200d|[\ufe00-\ufe0f])$/u;
/** A pictograph drawn as an emoji (two cells), past the symbols most terminals draw in one. */
const EMOJI = /^\p{Extended_Pictographic}$/u;

/** The cells a terminal draws one character (code point) in: 0, 1, or 2 for a wide one. */
export function cellsOf(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (NO_CELL.test(char)) return 0;
  const wide =
    (code >= 0x1100 && code <= 0x115f) || // Hangul Jamo
    (code >= 0x2e80 && code <= 0x303e) || // CJK radicals, punctuation
    (code >= 0x3041 && code <= 0x33ff) || // kana, CJK symbols
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) || // CJK ideographs
    (code >= 0xa000 && code <= 0xa4cf) || // Yi
    (code >= 0xac00 && code <= 0xd7a3) || // Hangul syllables
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) || // full-width forms
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f000 && EMOJI.test(char)) ||
    (code >= 0x20000 && code <= 0x3fffd);
  return wide ? 2 : 1;
}

/** The cells `text` takes on one line. */
export function cellWidth(text: string): number {
  let cells = 0;
  for (const char of text) cells += cellsOf(char);
  return cells;
}

/** The longest start of `text` that takes at most `cells` cells, never half a character. */
function headOf(text: string, cells: number): string {
  let taken = 0;
  let end = 0;
  for (const char of text) {
    const size = cellsOf(char);
    if (taken + size > cells) break;
    taken += size;
    end += char.length;
  }
  return text.slice(0, end);
}

/** The longest end of `text` that takes at most `cells` cells, never half a character. */
function tailOf(text: string, cells: number): string {
  const chars = Array.from(text);
  let taken = 0;
  let start = chars.length;
  // A mark stays with the character it is drawn on.
  while (start > 0) {
    const size = cellsOf(chars[start - 1] as string);
    if (taken + size > cells) break;
    taken += size;
    start--;
  }
  while (start < chars.length && cellsOf(chars[start] as string) === 0) start++;
  return chars.slice(start).join('');
}

/** `text` padded with spaces to `cells` cells. */
function padCells(text: string, cells: number): string {
  return text + ' '.repeat(Math.max(0, cells - cellWidth(text)));
}

/** `text` in exactly `width` cells: padded, or cut with an ellipsis. */
export function fit(text: string, width: number): string {
  if (width <= 0) return '';
  if (cellWidth(text) <= width) return padCells(text, width);
  return padCells(`${headOf(text, width - 1)}…`, width);
}

/**
 * `text` in exactly `width` cells: padded, or cut in the middle with an ellipsis, keeping its
 * start and its end (of a bucket key, the level and client, and the caller that tells two apart).
 * Cells are counted as a terminal draws them (a wide character takes two), and no character is
 * cut in half.
 */
export function fitMiddle(text: string, width: number): string {
  if (width <= 0) return '';
  if (cellWidth(text) <= width) return padCells(text, width);
  const tail = Math.floor((width - 1) / 2);
  const end = tail === 0 ? '' : tailOf(text, tail);
  return padCells(`${headOf(text, width - 1 - cellWidth(end))}…${end}`, width);
}
