import { describe, expect, it } from 'vitest';
import { jsonText } from './json-text.js';

describe('jsonText', () => {
  const hostile = 'a\u009b31mb\u202ec\u2066d\u200fe\u2028f\u007fg\u001bh';

  it('writes C1 controls, DEL, separators and bidi controls as \\u escapes, as JSON does C0', () => {
    expect(jsonText({ caller_id: hostile })).toBe(
      '{"caller_id":"a\\u009b31mb\\u202ec\\u2066d\\u200fe\\u2028f\\u007fg\\u001bh"}',
    );
  });

  it('gives back the same value to a JSON parser', () => {
    expect(JSON.parse(jsonText({ list: [hostile, 'plain é ✓'] }))).toEqual({
      list: [hostile, 'plain é ✓'],
    });
  });
});
