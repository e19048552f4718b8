import { describe, expect, it } from 'vitest';
import { pluralize } from './pluralize.js';

describe('pluralize', () => {
  it('says one thing in the singular and any other count in the plural', () => {
    expect(pluralize(1, 'attempt')).toBe('1 attempt');
    expect(pluralize(3, 'attempt')).toBe('3 attempts');
    expect(pluralize(0, 'request')).toBe('0 requests');
    expect(pluralize(2, 'oldest request', 'oldest requests')).toBe('2 oldest requests');
  });
});
