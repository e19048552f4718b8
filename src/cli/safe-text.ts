/**
 * C0 controls but tab and newline, DEL, the C1 controls, and a carriage return that does not end
 * a line (CRLF stays: it moves nothing a newline would not).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)/g;

/**
 * Makes text from a server safe to print to a terminal: every control character that could move
 * the cursor, clear the screen, set the window title or hide text (C0 but `\n` and `\t`, DEL, C1,
 * and a `\r` not followed by `\n`) is shown as a visible escape instead: `\r` for a carriage
 * return, `\xNN` (two lowercase hex digits) for the others, so ESC prints as `\x1b`.
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (control) =>
    control === '\r' ? '\\r' : `\\x${control.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

/** C1 controls and DEL, which `JSON.stringify` leaves as they are. */
const JSON_UNESCAPED_CONTROLS = /[\x7f-\x9f]/g;

/**
 * `JSON.stringify` for output a terminal may show: JSON already escapes C0 controls, and this also
 * writes DEL and the C1 controls (U+0080 to U+009F, which some terminals obey as CSI and OSC) as
 * `\u00NN`. The result parses to the same value.
 */
export function toSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    JSON_UNESCAPED_CONTROLS,
    (control) => `\\u${control.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
