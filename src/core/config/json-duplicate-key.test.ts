import { describe, expect, it } from 'vitest';
import { duplicateKey } from './json-duplicate-key.js';

describe('duplicateKey', () => {
  it('finds a key given again in one object, with its pointer and offset', () => {
    const text = '{"limits": {"caller": {"burst": 3, "burst": 4}}}';
    expect(duplicateKey(text)).toEqual({
      key: 'burst',
      pointer: '#/limits/caller/burst',
      offset: text.lastIndexOf('"burst"'),
    });
  });

  it('compares keys as parsed, and counts array items in the pointer', () => {
    expect(duplicateKey('{"users": [{}, {"a": 1, "\\u0061": 2}]}')).toMatchObject({
      key: 'a',
      pointer: '#/users/1/a',
    });
    expect(duplicateKey('{"a/b~": [1, {"x": "y", "x": "z"}]}')?.pointer).toBe('#/a~1b~0/1/x');
  });

  it('finds nothing when each object gives each key once, whatever the values hold', () => {
    expect(duplicateKey('{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}')).toBeUndefined();
    expect(duplicateKey('{"a": "\\"a\\": ,", "b": ["a", "a"], "c": {"d": "a"}}')).toBeUndefined();
    expect(duplicateKey('[{"a": 1}, {"a": 1}]')).toBeUndefined();
    expect(duplicateKey('"a"')).toBeUndefined();
  });
});
