export { escapeControls } from '../text/escape-controls.js';
/**
 * `JSON.stringify` for output a terminal may show: DEL, the C1 controls, the line separators and
 * the bidi controls are written as `\uXXXX` too (JSON escapes only the C0 ones). The result parses
 * to the same value. The one writer of such JSON, under the name the commands know it by.
 */
export { jsonText as toSafeJson } from '../text/json-text.js';
