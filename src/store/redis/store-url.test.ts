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
  it('reads a Unix socket with its database, and refuses any other query than ?db=N', () => {
    expect(parseRedisUrl('unix:///run/redis.sock?db=3').connection).toEqual({
      path: '/run/redis.sock',
      db: 3,
      password: undefined,
    });
    for (const text of [
      'unix:///run/redis.sock?cluster=1',
      'unix:///run/redis.sock?foo=bar',
      'unix:///run/redis.sock?db=1&db=2',
      'unix:///run/redis.sock#x',
    ])
      expect(refusal(text)).toBe(
        `${text}: a unix:// URL takes no query but ?db=N (the database), and no fragment`,
      );
    expect(refusal('unix:///run/redis.sock?db=0&password=hunter2')).toBe(
      'unix:///run/redis.sock?db=0&password=***: a unix:// URL takes no query but ?db=N (the database), and no fragment',
    );
  });

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
      'redis://***@127.0.0.1:16392: a Redis URL takes no fragment (in a password, write "/", "?", "#" and "@" percent-encoded: %2F, %3F, %23, %40)',
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

  it('reads a cluster URL: the host and each seed are seed nodes, the password kept for all', () => {
    const target = parseRedisUrl(
      'rediss://user:s%40crit@10.0.0.1:7000?cluster=1&seed=10.0.0.2:7001&seed=[::1]:7002',
    );
    expect(target.connection).toEqual({
      cluster: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      username: 'user',
      password: 's@crit',
      tls: true,
    });
    expect(target.display).toBe(
      'rediss://user:***@10.0.0.1:7000?cluster=1&seed=10.0.0.2:7001&seed=[::1]:7002',
    );
    expect(parseRedisUrl('redis://127.0.0.1?cluster=1').connection).toEqual({
      cluster: [{ host: '127.0.0.1', port: 6379 }],
      username: undefined,
      password: undefined,
      tls: false,
    });
  });

  it.each([
    [
      'redis://127.0.0.1:7000?seed=127.0.0.1:7001',
      'redis://127.0.0.1:7000?seed=127.0.0.1:7001: a Redis URL takes no query but ?cluster=1 (a Redis Cluster), with seed=host:port for each other seed node',
    ],
    [
      'redis://127.0.0.1:7000?cluster=yes',
      'redis://127.0.0.1:7000?cluster=yes: a Redis URL takes no query but ?cluster=1 (a Redis Cluster), with seed=host:port for each other seed node',
    ],
    [
      'redis://127.0.0.1:7000?cluster=1&db=2',
      'redis://127.0.0.1:7000?cluster=1&db=2: a Redis URL takes no query but ?cluster=1 (a Redis Cluster), with seed=host:port for each other seed node',
    ],
    [
      'redis://127.0.0.1:7000/3?cluster=1',
      'redis://127.0.0.1:7000/3?cluster=1: a Redis Cluster has only database 0; got /3',
    ],
    [
      'redis://127.0.0.1:7000?cluster=1&seed=127.0.0.1',
      'redis://127.0.0.1:7000?cluster=1&seed=127.0.0.1: a seed node is host:port, such as seed=10.0.0.2:6379; got "127.0.0.1"',
    ],
    [
      'redis://127.0.0.1:7000?cluster=1&seed=127.0.0.1:70000',
      'redis://127.0.0.1:7000?cluster=1&seed=127.0.0.1:70000: a seed node is host:port, such as seed=10.0.0.2:6379; got "127.0.0.1:70000"',
    ],
  ])('refuses the cluster URL %s, saying what it takes', (text, message) => {
    expect(refusal(text)).toBe(message);
  });
});
