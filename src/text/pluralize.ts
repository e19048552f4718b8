/**
 * A count with its noun, singular for one and plural otherwise: `1 attempt`, `3 attempts`,
 * `0 requests`. `nouns` is the plural when it is not the noun with an s.
 */
export function pluralize(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}
