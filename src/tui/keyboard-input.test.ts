import { describe, expect, it } from 'vitest';
import { keyboardOnly } from './keyboard-input.js';

describe('keyboardOnly', () => {
  it('keeps text, control characters, a lone Escape and the keys the screens use', () => {
    for (const keys of [
      'q',
      'abc/ü€😀',
      '\r',
      '\u007f',
      '\u0003',
      '\u001b',
      '\u001b[A',
      '\u001b[B',
      '\u001bOA',
      '\u001b[H',
      '\u001b[3~',
      '\u001b[Z',
    ])
      expect(keyboardOnly(keys)).toBe(keys);
    // Escape, then an arrow: both kept, as the terminal sent them.
    expect(keyboardOnly('\u001b\u001b[A')).toBe('\u001b\u001b[A');
  });

  it('leaves out the sequences the screens do not use, and keeps the text around them', () => {
    // Ctrl with a key Ink cannot name, which ends Ink 6's screen with a TypeError.
    expect(keyboardOnly('\u001b[1;5I')).toBe('');
    // Pasted colours, a title, a bracketed paste, Alt+x, a modified arrow, a cut-off sequence.
    expect(keyboardOnly('ab\u001b[31mc\u001b[0m')).toBe('abc');
    expect(keyboardOnly('\u001b]0;title\u0007x')).toBe('x');
    expect(keyboardOnly('\u001b]8;;http://e\u001b\\link')).toBe('link');
    expect(keyboardOnly('\u001b[200~pasted\u001b[201~')).toBe('pasted');
    expect(keyboardOnly('\u001bx\u001b[1;2A')).toBe('');
    expect(keyboardOnly('q\u001b[12')).toBe('q');
  });
});
