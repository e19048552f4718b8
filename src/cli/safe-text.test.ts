import { describe, expect, it } from 'vitest';
import { toSafeJson } from './safe-text.js';

describe('toSafeJson', () => {
  it('escapes DEL and C1, which JSON.stringify leaves raw, and parses back to the same value', () => {
    const value = { text: 'a\u009b2Jb\x7f\x1b[0m', n: 1 };
    expect(JSON.stringify(value)).toContain('\u009b');
    const json = toSafeJson(value);
    expect(json).toBe('{"text":"a\\u009b2Jb\\u007f\\u001b[0m","n":1}');
    expect(JSON.parse(json)).toEqual(value);
  });

  it('escapes bidi overrides and line separators too, as the text output does', () => {
    const value = { body: 'a\u202eb\u2028c\u2066d' };
    expect(toSafeJson(value)).toBe('{"body":"a\\u202eb\\u2028c\\u2066d"}');
    expect(JSON.parse(toSafeJson(value))).toEqual(value);
  });
});
