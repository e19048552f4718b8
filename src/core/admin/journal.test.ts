import { describe, expect, it } from 'vitest';
import { createJournal } from './journal.js';

describe('createJournal', () => {
  it('keeps the newest entries, newest first', () => {
    const journal = createJournal<number>(3);
    for (let index = 1; index <= 5; index++) journal.push(index);
    expect(journal.list()).toEqual([5, 4, 3]);
    expect(journal.list(2)).toEqual([5, 4]);
    journal.resize(2);
    journal.push(6);
    expect(journal.list()).toEqual([6, 5]);
  });
});
