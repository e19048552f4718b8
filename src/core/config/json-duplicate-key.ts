/** A key given again in one object of a JSON text: the key, its JSON pointer and its offset. */
export interface DuplicateKey {
  key: string;
  /** The pointer of the second one, such as `#/limits/caller/burst`. */
  pointer: string;
  /** Where the second one starts in the text. */
  offset: number;
}

/** One open object (its keys so far, and the last) or array (its index so far). */
type Level = { keys: Set<string>; key: string } | { index: number };

/**
 * The first key given twice in one object of valid JSON text, found in one pass: `JSON.parse`
 * keeps the last silently, so a field written twice (a block pasted in, two lists of users)
 * would lose the first without a word. Keys are compared as parsed (`"a"` and `"\u0061"` are one).
 */
export function duplicateKey(text: string): DuplicateKey | undefined {
  const levels: Level[] = [];
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 34 /* " */) {
      const start = index;
      let escaped = false;
      for (index++; index < text.length; index++) {
        const inner = text.charCodeAt(index);
        if (inner === 92 /* \ */) {
          escaped = true;
          index++;
        } else if (inner === 34) break;
      }
      const level = levels[levels.length - 1];
      if (level === undefined || !('keys' in level) || !followedByColon(text, index + 1)) continue;
      const key = escaped
        ? (JSON.parse(text.slice(start, index + 1)) as string)
        : text.slice(start + 1, index);
      level.key = key;
      if (level.keys.has(key)) return { key, pointer: pointerOf(levels), offset: start };
      level.keys.add(key);
    } else if (code === 123 /* { */) levels.push({ keys: new Set(), key: '' });
    else if (code === 91 /* [ */) levels.push({ index: 0 });
    else if (code === 125 /* } */ || code === 93 /* ] */) levels.pop();
    else if (code === 44 /* , */) {
      const level = levels[levels.length - 1];
      if (level !== undefined && 'index' in level) level.index++;
    }
  }
  return undefined;
}

/** Whether the next character after `from` other than JSON whitespace is a colon. */
function followedByColon(text: string, from: number): boolean {
  for (let index = from; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 58 /* : */) return true;
    if (code !== 32 && code !== 9 && code !== 10 && code !== 13) return false;
  }
  return false;
}

/** The JSON pointer of the current key, each key in it cut to 64 characters. */
function pointerOf(levels: readonly Level[]): string {
  const segments = levels.map((level) =>
    'keys' in level
      ? level.key.slice(0, 64).replaceAll('~', '~0').replaceAll('/', '~1')
      : String(level.index),
  );
  return `#/${segments.join('/')}`;
}
