/** Options of {@link escapeControls}. */
export interface EscapeControlsOptions {
  /**
   * Keep line feeds and tabs as they are; false escapes them too (for text that must stay on one
   * line).
   * @default true
   */
  keepNewlines?: boolean;
}

/**
 * Makes text from outside (a request, a server's answer, a config) safe to print to a terminal:
 * every C0 and C1 control character and DEL (escape sequences that would recolour the screen,
 * move the cursor or set a terminal's title; C1 holds CSI, U+009B, which some terminals read as
 * ESC [) becomes a visible `\xNN`. So do the Unicode line and paragraph separators and the
 * bidirectional overrides, isolates and marks (`\u2028`, `\u202e`, `\u200f`, ...), which would break a line or
 * reorder what a reader sees, and the characters that show as nothing (`\u200b`, `\ufeff`, ...). A carriage return that would overwrite the line shows as `\r`.
 * Line feed, tab and CRLF stay unless `keepNewlines` is false.
 */
export function escapeControls(text: string, options: EscapeControlsOptions = {}): string {
  const keep = options.keepNewlines ?? true;
  let out = '';
  let from = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // The bidirectional marks (Arabic letter mark, left-to-right and right-to-left marks) are
    // escaped as the overrides are.
    // So are the characters that show as nothing at all (zero-width space, word joiner, the
    // invisible operators, the byte order mark), which would hide a difference between two
    // values; the zero-width joiners, which emoji and some scripts need, are not.
    const mark =
      code === 0x061c ||
      code === 0x200b ||
      code === 0x200e ||
      code === 0x200f ||
      (code >= 0x2060 && code <= 0x2064) ||
      code === 0xfeff;
    if ((code >= 0x20 && code < 0x7f) || (code > 0x9f && code < 0x2028 && !mark)) continue;
    let escaped: string;
    if (code < 0x100) {
      if (keep && (code === 0x0a || code === 0x09)) continue;
      if (code === 0x0d) {
        if (keep && text.charCodeAt(index + 1) === 0x0a) continue;
        escaped = '\\r';
      } else escaped = `\\x${code.toString(16).padStart(2, '0')}`;
    } else if (mark || code <= 0x202e || (code >= 0x2066 && code <= 0x2069)) {
      escaped = `\\u${code.toString(16).padStart(4, '0')}`;
    } else {
      continue;
    }
    out += text.slice(from, index) + escaped;
    from = index + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}
