import { describe, expect, it } from 'vitest';
import { escapeControls, toSafeJson } from './safe-text.js';

describe('escapeControls', () => {
  it('shows terminal sequences as visible escapes', () => {
    expect(escapeControls('\x1b]0;pwned\x07')).toBe('\\x1b]0;pwned\\x07');
    expect(escapeControls('\x1b[2J\x1b[H')).toBe('\\x1b[2J\\x1b[H');
    expect(escapeControls('\u009b2J\u009d0;t\u009c')).toBe('\\x9b2J\\x9d0;t\\x9c');
    expect(escapeControls('a\x7fb\x00c\x08')).toBe('a\\x7fb\\x00c\\x08');
  });

  it('escapes a carriage return that would overwrite the line, and keeps newline, tab and CRLF', () => {
    expect(escapeControls('ok\r✔ 200 fake')).toBe('ok\\r✔ 200 fake');
    expect(escapeControls('one\ntwo\tthree\r\nfour')).toBe('one\ntwo\tthree\r\nfour');
    expect(escapeControls('end\r')).toBe('end\\r');
  });

  it('leaves printable text alone, non-ASCII included', () => {
    const text = 'café ✔ 東京 \u00a0 {"a": 1}';
    expect(escapeControls(text)).toBe(text);
  });

  it('leaves no control character but newline and tab', () => {
    let all = '';
    for (let code = 0; code < 0xa0; code++) all += String.fromCharCode(code);
    // eslint-disable-next-line no-control-regex -- looking for control characters
    expect(escapeControls(all)).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]|\r(?!\n)/);
  });
});

describe('toSafeJson', () => {
  it('escapes DEL and C1, which JSON.stringify leaves raw, and parses back to the same value', () => {
    const value = { text: 'a\u009b2Jb\x7f\x1b[0m', n: 1 };
    expect(JSON.stringify(value)).toContain('\u009b');
    const json = toSafeJson(value);
    expect(json).toBe('{"text":"a\\u009b2Jb\\u007f\\u001b[0m","n":1}');
    expect(JSON.parse(json)).toEqual(value);
  });
});
