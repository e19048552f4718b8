import { describe, expect, it } from 'vitest';
import { markdownText } from './markdown-text.js';

describe('markdownText', () => {
  it.each([
    [
      'escapes what would start emphasis, a link, HTML, a table cell or code',
      'a|b *c* _d_ [e](f) ![g](h) <i> `j` ~k~ &amp; #',
      'a\\|b \\*c\\* \\_d\\_ \\[e\\](f) \\!\\[g\\](h) \\<i\\> \\`j\\` \\~k\\~ \\&amp; \\#',
    ],
    [
      'keeps text on one line, with control characters and line feeds visible',
      'one\n\n# two\r\u001b[2J',
      'one\\\\x0a\\\\x0a\\# two\\\\r\\\\x1b\\[2J',
    ],
    [
      'breaks what GFM would link by itself: a URL, www., an e-mail address',
      'see https://evil.example/login or WWW.evil.example, mail bob@evil.example',
      'see https\\://evil.example/login or WWW\\.evil.example, mail bob\\@evil.example',
    ],
    [
      'leaves plain text alone',
      'A sale: 900 shoppers sign in over 15 minutes (e-mail, 12/s).',
      'A sale: 900 shoppers sign in over 15 minutes (e-mail, 12/s).',
    ],
  ])('%s', (_, text, expected) => {
    expect(markdownText(text)).toBe(expected);
  });
});
