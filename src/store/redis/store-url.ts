import { redactUrlPassword } from '../../core/records/redact.js';

/** Where a Redis store connects: what ioredis takes, and how to name it in a log line. */
export interface RedisTarget {
  /** A TCP target (`redis://`, `rediss://` for TLS) or a Unix socket (`unix://`). */
  connection:
    | { host: string; port: number; db: number; username?: string; password?: string; tls: boolean }
    | { path: string; db: number; password?: string };
  /** The URL without its password: safe to print. */
  display: string;
}

/** The highest database index a Redis server can have (its `databases` setting). */
const MAX_DB = 1_000_000;

/**
 * Reads a store URL: `redis://[user:password@]host[:port][/db]`, `rediss://…` (TLS) or
 * `unix:///path/to/redis.sock[?db=N]`. Throws an Error whose message is one line, naming what
 * is wrong, for anything else.
 */
export function parseRedisUrl(text: string): RedisTarget {
  const display = redactUrlPassword(text);
  // A password with "/", "?", "#" or "@" in it, as typed: where it ends is anyone's guess.
  const encode = text.includes('@')
    ? ' (in a password, write "/", "?", "#" and "@" percent-encoded: %2F, %3F, %23, %40)'
    : '';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(
      `${JSON.stringify(display)} is not a URL; expected redis://host:port/db${encode}`,
    );
  }
  const decode = (part: string) => {
    try {
      return part === '' ? undefined : decodeURIComponent(part);
    } catch {
      throw new Error(
        `${display}: a "%" in the user or password starts no percent-encoded character`,
      );
    }
  };
  const password = decode(url.password);
  if (url.protocol === 'unix:') {
    if (url.host !== '' || url.pathname === '' || url.pathname === '/')
      throw new Error(`${display}: expected unix:///absolute/path/to/redis.sock`);
    return {
      connection: {
        path: decodeURIComponent(url.pathname),
        db: readDb(url.searchParams.get('db') ?? '0', display),
        password,
      },
      display,
    };
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new Error(
      `${display}: unknown scheme ${url.protocol}; expected redis://, rediss:// or unix://`,
    );
  if (url.hostname === '') throw new Error(`${display}: the URL has no host`);
  if (url.search !== '' || url.hash !== '')
    throw new Error(`${display}: a Redis URL takes no query or fragment${encode}`);
  // Not a database: more of a password, cut short by a "/" in it.
  if (url.pathname.includes('@'))
    throw new Error(`${display}: the URL has an "@" after its host${encode}`);
  const port = url.port === '' ? 6379 : Number(url.port);
  const db = readDb(url.pathname.replace(/^\//, '') || '0', display);
  return {
    connection: {
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port,
      db,
      username: decode(url.username),
      password,
      tls: url.protocol === 'rediss:',
    },
    display,
  };
}

function readDb(text: string, display: string): number {
  const db = Number(text);
  if (!/^\d+$/.test(text) || db > MAX_DB)
    throw new Error(
      `${display}: the database must be a whole number, such as /0; got ${JSON.stringify(text)}`,
    );
  return db;
}
