import { describe, expect, it } from 'vitest';
import { parseRedisUrl } from './store-url.js';

/** The message parseRedisUrl throws for `text`. */
function refusal(text: string): string {
  try {
    parseRedisUrl(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} was accepted`);
}

describe('parseRedisUrl', () => {
  it('reads a password and shows the URL without it, nor its length', () => {
    const target = parseRedisUrl('redis://user:p%40ss%2Fword@127.0.0.1:16392/3');
    expect(target.connection).toMatchObject({
      host: '127.0.0.1',
      port: 16392,
      db: 3,
      username: 'user',
      password: 'p@ss/word',
    });
    expect(target.display).toBe('redis://user:***@127.0.0.1:16392/3');
  });

  it.each([
    [
      'redis://:ab/cdefg@127.0.0.1:16392',
      '"redis://***@127.0.0.1:16392" is not a URL; expected redis://host:port/db (in a password, write "/", "?", "#" and "@" percent-encoded: %2F, %3F, %23, %40)',
    ],
    [
      'redis://:p@ss:w/rd#1@127.0.0.1:16392',
      '"redis://***@127.0.0.1:16392" is not a URL; expected redis://host:port/db (in a password, write "/", "?", "#" and "@" percent-encoded: %2F, %3F, %23, %40)',
    ],
    [
      'redis://user:12/cdefg@127.0.0.1:16392/0',
      'redis://***@127.0.0.1:16392/0: the URL has an "@" after its host (in a password, write "/", "?", "#" and "@" percent-encoded: %2F, %3F, %23, %40)',
    ],
    [
      'redis://user:12#cdefg@127.0.0.1:16392',
      'redis://***@127.0.0.1:16392: a Redis URL takes no query or fragment (in a password, write "/", "?", "#" and "@" percent-encoded: %2F, %3F, %23, %40)',
    ],
    [
      'redis://:cdefg%zz@127.0.0.1:16392',
      'redis://:***@127.0.0.1:16392: a "%" in the user or password starts no percent-encoded character',
    ],
    [
      'redis://:cdefg@127.0.0.1:16392/x',
      'redis://:***@127.0.0.1:16392/x: the database must be a whole number, such as /0; got "x"',
    ],
  ])('refuses %s without showing any of its password', (text, message) => {
    expect(refusal(text)).toBe(message);
    expect(refusal(text)).not.toMatch(/cdefg|chars\)/);
  });
});
