import { describe, expect, it } from 'vitest';
import { escapeControls } from './escape-controls.js';

describe('escapeControls', () => {
  it('makes C0 controls, DEL and C1 controls visible', () => {
    expect(escapeControls('a\u001b[31mred\u0007\u0000\u007f\u009b2J\u0085')).toBe(
      'a\\x1b[31mred\\x07\\x00\\x7f\\x9b2J\\x85',
    );
  });

  it('keeps line feeds and tabs unless told otherwise', () => {
    expect(escapeControls('one\n\ttwo\r')).toBe('one\n\ttwo\\r');
    expect(escapeControls('ok\r✔ 200 fake')).toBe('ok\\r✔ 200 fake');
    expect(escapeControls('three\r\nfour')).toBe('three\r\nfour');
    expect(escapeControls('three\r\nfour', { keepNewlines: false })).toBe('three\\r\\x0afour');
    expect(escapeControls('one\n\ttwo', { keepNewlines: false })).toBe('one\\x0a\\x09two');
  });

  it('makes line separators and bidirectional overrides visible', () => {
    expect(escapeControls('a\u2028b\u2029c\u202eevil\u2066d\u2069')).toBe(
      'a\\u2028b\\u2029c\\u202eevil\\u2066d\\u2069',
    );
    expect(escapeControls('a\u200fb\u200ec\u061cd')).toBe('a\\u200fb\\u200ec\\u061cd');
  });

  it('makes the characters that show as nothing visible, but not the joiners emoji need', () => {
    expect(escapeControls('a\u200bb\u2060c\u2064d\ufeff')).toBe('a\\u200bb\\u2060c\\u2064d\\ufeff');
    expect(escapeControls('👨\u200d👩\u200d👧 می\u200cخواهم')).toBe(
      '👨\u200d👩\u200d👧 می\u200cخواهم',
    );
  });

  it('leaves printable text alone, non-ASCII included', () => {
    const text = 'Zoë · 日本 🎉 ~ \u00a0 – “quoted” …';
    expect(escapeControls(text)).toBe(text);
  });
});
