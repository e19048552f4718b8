export { escapeControls } from '../text/escape-controls.js';

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
