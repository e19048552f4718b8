/** What a key press, or a paste, adds to the filter being typed. */
export interface FilterInput {
  /** The text to add: printable characters only. */
  text: string;
  /** Whether the input held a line break, which ends the filter as enter does. */
  ends: boolean;
}

// C0 and C1 controls and DEL: a tab or an escape pasted in is no part of a bucket key.
// eslint-disable-next-line no-control-regex -- the controls to leave out
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Reads typed or pasted input while the filter is being edited. A paste arrives whole, so a line
 * break in it (`caller:demo\n`) ends the filter there, as enter would, and what follows it is
 * dropped: it could only be garbage in the filter, or a second line that breaks the layout.
 * Other control characters are left out.
 */
export function readFilterInput(input: string): FilterInput {
  const lineBreak = input.search(/[\r\n]/);
  const line = lineBreak < 0 ? input : input.slice(0, lineBreak);
  return { text: line.replace(CONTROLS, ''), ends: lineBreak >= 0 };
}
