/**
 * Characters JSON.stringify leaves as they are but a terminal or an editor acts on: DEL and the
 * C1 controls (U+009B is CSI to some terminals), the line and paragraph separators, and the
 * bidirectional marks, embeddings, overrides and isolates, which reorder what a reader sees.
 */
const UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/**
 * Writes DEL, the C1 controls, the line and paragraph separators and the bidi controls of `text`
 * as `\uXXXX`, the escape JSON has for them: for JSON text, and for a message that quotes a value
 * as JSON does.
 */
export function escapeUnicodeControls(text: string): string {
  return text.replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * `JSON.stringify(value)`, with the characters JSON leaves raw but a terminal acts on written as
 * `\uXXXX` escapes (as JSON already writes the C0 controls): the same value for a parser, safe
 * text for a person who prints it. They can only occur inside strings, where the escape is valid.
 */
export function jsonText(value: unknown): string {
  return escapeUnicodeControls(JSON.stringify(value));
}
