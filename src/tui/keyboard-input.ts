import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * The escape sequences of the keys the screens use (arrows, Home, End, Page Up and Down,
 * Delete, Shift+Tab), as terminals send them: CSI or SS3, without modifiers.
 */
// eslint-disable-next-line no-control-regex -- escape sequences are what it reads
const KNOWN_SEQUENCE = /^\u001b(?:\[[ABCDHFZ]|O[ABCDHF]|\[[1-8]~)$/;

/**
 * An escape sequence at the start of a text: CSI (parameters, then a final byte), SS3 and one
 * character, OSC or another string up to BEL or ST (or the text's end), or ESC and one character
 * (an ESC followed by another is a lone Escape: the next sequence starts there).
 */
const SEQUENCE =
  // eslint-disable-next-line no-control-regex -- escape sequences are what it reads
  /^\u001b(?:\[[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|O[^\u001b]?|[\]P^_X][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[^\u001b])/su;

/**
 * Keyboard input with the escape sequences the screens do not use left out: what remains is
 * text, control characters, a lone Escape and {@link KNOWN_SEQUENCE}s. Ink 6 throws on some it
 * cannot name (Ctrl with an unknown CSI key, `ESC [1;5I`), which would end the screen, and pasted
 * text can carry colours (`ESC [31m`) that a filter should not take.
 */
export function keyboardOnly(text: string): string {
  let kept = '';
  let at = 0;
  while (at < text.length) {
    const escape = text.indexOf('\u001b', at);
    if (escape === -1) return kept + text.slice(at);
    kept += text.slice(at, escape);
    const sequence = SEQUENCE.exec(text.slice(escape))?.[0] ?? '\u001b';
    if (sequence === '\u001b' || KNOWN_SEQUENCE.test(sequence)) kept += sequence;
    at = escape + sequence.length;
  }
  return kept;
}

/**
 * A terminal's input as the screen reads it: the same stream (raw mode, ref and unref reach the
 * terminal) with {@link keyboardOnly} applied to what it sends.
 */
export function keyboardStream(stdin: NodeJS.ReadStream): NodeJS.ReadStream {
  // Chunk by chunk, as the terminal sent them: keys read apart stay apart.
  const filtered = new PassThrough({ objectMode: true });
  const decoder = new StringDecoder('utf8');
  // Read as the screen reads a terminal: `readable`, then `read()` until it is empty.
  const onReadable = () => {
    for (let chunk: unknown = stdin.read(); chunk !== null; chunk = stdin.read()) {
      const text = keyboardOnly(typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer));
      if (text !== '') filtered.write(text);
    }
  };
  let reading = false;
  return Object.assign(filtered, {
    isTTY: stdin.isTTY,
    setRawMode(mode: boolean) {
      stdin.setRawMode(mode);
      // Read from the terminal only while the screen reads keys.
      if (mode && !reading) stdin.on('readable', onReadable);
      else if (!mode && reading) stdin.off('readable', onReadable);
      reading = mode;
      return filtered;
    },
    ref() {
      stdin.ref();
      return filtered;
    },
    unref() {
      stdin.unref();
      return filtered;
    },
  }) as unknown as NodeJS.ReadStream;
}
