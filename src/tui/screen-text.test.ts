import { describe, expect, it } from 'vitest';
import { cellWidth, fit, fitMiddle } from './screen-text.js';

describe('text fitted to a column of the screen', () => {
  it('counts a wide character as two cells, a combining mark as none', () => {
    expect(cellWidth('abc')).toBe(3);
    expect(cellWidth('日本語')).toBe(6);
    expect(cellWidth('😀😀')).toBe(4);
    expect(cellWidth('e\u0301\u0301x')).toBe(2);
  });

  it('cuts a caller of wide characters to its column in cells, so the status after it stays on the row', () => {
    const caller = '日本語ワイド文字キャラクター全角全角';
    const cut = fitMiddle(caller, 24);
    expect(cellWidth(cut)).toBe(24);
    expect(cut.startsWith('日本語ワイド')).toBe(true);
    expect(cut).toContain('…');
    expect(cellWidth(fit(caller, 10))).toBe(10);
  });

  it('never cuts a character in half (an emoji is two UTF-16 units)', () => {
    const cut = fitMiddle('😀'.repeat(40), 24);
    expect(Array.from(cut).every((char) => ['😀', '…', ' '].includes(char))).toBe(true);
    expect(cellWidth(cut)).toBe(24);
    expect(fit('😀'.repeat(40), 8)).toBe('😀😀😀… ');
    expect(fit('😀'.repeat(40), 7)).toBe('😀😀😀…');
  });

  it('pads text with combining marks to its column in cells', () => {
    expect(cellWidth(fitMiddle('e\u0301\u0301\u0301combining', 24))).toBe(24);
  });

  it('leaves ASCII as it was: padded, or cut in the middle', () => {
    expect(fitMiddle('caller:demo:203.0.113.7', 30)).toBe('caller:demo:203.0.113.7'.padEnd(30));
    expect(fitMiddle(`caller:demo:a${'z'.repeat(40)}`, 24)).toBe(`caller:demo:…${'z'.repeat(11)}`);
    expect(fit('abcdef', 4)).toBe('abc…');
  });
});
