import { describe, expect, it } from 'vitest';
import { createJournal } from './journal.js';

describe('createJournal', () => {
  it('keeps the newest entries, newest first', () => {
    const journal = createJournal<number>(3);
    expect(journal.list()).toEqual([]);
    for (let index = 1; index <= 5; index++) journal.push(index);
    expect(journal.list()).toEqual([5, 4, 3]);
    expect(journal.list(2)).toEqual([5, 4]);
  });

  it('keeps every entry when unbounded', () => {
    const journal = createJournal<number>(Infinity);
    for (let index = 1; index <= 2_000; index++) journal.push(index);
    expect(journal.list()).toHaveLength(2_000);
    expect(journal.list(3)).toEqual([2_000, 1_999, 1_998]);
  });
});
