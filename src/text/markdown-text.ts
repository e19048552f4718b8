import { escapeControls } from './escape-controls.js';

/**
 * Text from outside (a scenario's name, a description) made plain text for Markdown: one line
 * (a line feed shows as `\x0a`, so it cannot end a paragraph or start a heading or a list),
 * control characters visible, and every character that could start markup (emphasis, links and
 * images, HTML and entities, table cells, code, a heading's closing `#`) escaped with a
 * backslash, and so is what GFM would turn into a link by itself (`https://`, `www.`, an
 * e-mail address); parentheses are harmless once brackets are escaped.
 */
export function markdownText(text: string): string {
  return (
    escapeControls(text, { keepNewlines: false })
      .replace(/[\\`*_[\]<>#|!~&]/g, '\\$&')
      // What GFM would make a link of by itself: a URL's "://", "www." and an e-mail's "@".
      .replace(/:\/\//g, '\\://')
      .replace(/\b(www)\./gi, '$1\\.')
      .replace(/(?<=[\w.+-])@(?=[\w-])/g, '\\@')
  );
}
