import { redactUrlPassword } from '../../core/records/redact.js';

/** A host and port of a TCP target. */
export interface RedisNode {
  host: string;
  port: number;
}

/** Where a Redis store connects: what ioredis takes, and how to name it in a log line. */
export interface RedisTarget {
  /**
   * A TCP target (`redis://`, `rediss://` for TLS), a Unix socket (`unix://`), or a Redis
   * Cluster (`?cluster=1`): its seed nodes, the first the URL's host, then each `seed=host:port`.
   */
  connection:
    | { host: string; port: number; db: number; username?: string; password?: string; tls: boolean }
    | { path: string; db: number; password?: string }
    | { cluster: RedisNode[]; username?: string; password?: string; tls: boolean };
  /** The URL without its password: safe to print. */
  display: string;
}

/** The highest database index a Redis server can have (its `databases` setting). */
const MAX_DB = 1_000_000;

/**
 * Reads a store URL: `redis://[user:password@]host[:port][/db]`, `rediss://…` (TLS),
 * `unix:///path/to/redis.sock[?db=N]`, or a Redis Cluster:
 * `redis://[user:password@]host[:port]?cluster=1[&seed=host:port…]` (`rediss://` alike). Throws an Error whose message is one line, naming what
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
    // Only ?db=N: anything else (?cluster=1, ?password=…) would be left unused without a word.
    const unknown = [...url.searchParams.keys()].find((name) => name !== 'db');
    if (unknown !== undefined || url.searchParams.getAll('db').length > 1 || url.hash !== '')
      throw new Error(
        `${display}: a unix:// URL takes no query but ?db=N (the database), and no fragment`,
      );
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
  if (url.hash !== '') throw new Error(`${display}: a Redis URL takes no fragment${encode}`);
  // Not a database: more of a password, cut short by a "/" in it.
  if (url.pathname.includes('@'))
    throw new Error(`${display}: the URL has an "@" after its host${encode}`);
  const seeds = readClusterQuery(url.searchParams, display, encode);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port === '' ? 6379 : Number(url.port);
  const db = readDb(url.pathname.replace(/^\//, '') || '0', display);
  const tls = url.protocol === 'rediss:';
  const username = decode(url.username);
  if (seeds === undefined)
    return { connection: { host, port, db, username, password, tls }, display };
  // A cluster has one database, 0: another would be a mistake, not a choice.
  if (db !== 0) throw new Error(`${display}: a Redis Cluster has only database 0; got /${db}`);
  return {
    connection: { cluster: [{ host, port }, ...seeds], username, password, tls },
    display,
  };
}

/**
 * The seed nodes after the first of a cluster URL's query (`cluster=1`, then `seed=host:port`
 * any number of times), or undefined when it names no cluster (no query). Throws for any other
 * query.
 */
function readClusterQuery(
  query: URLSearchParams,
  display: string,
  encode: string,
): RedisNode[] | undefined {
  const names = [...new Set(query.keys())];
  if (names.length === 0) return undefined;
  const unknown = names.find((name) => name !== 'cluster' && name !== 'seed');
  if (unknown !== undefined || query.getAll('cluster').join() !== '1')
    throw new Error(
      `${display}: a Redis URL takes no query but ?cluster=1 (a Redis Cluster), with seed=host:port for each other seed node${encode}`,
    );
  return query.getAll('seed').map((seed) => readSeed(seed, display));
}

/** A `host:port` (or `[IPv6]:port`) of a seed node. */
function readSeed(text: string, display: string): RedisNode {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(text);
  const port = Number(match?.[2]);
  if (match === null || port < 1 || port > 65_535)
    throw new Error(
      `${display}: a seed node is host:port, such as seed=10.0.0.2:6379; got ${JSON.stringify(text)}`,
    );
  return { host: (match[1] as string).replace(/^\[(.*)\]$/, '$1'), port };
}

function readDb(text: string, display: string): number {
  const db = Number(text);
  if (!/^\d+$/.test(text) || db > MAX_DB)
    throw new Error(
      `${display}: the database must be a whole number, such as /0; got ${JSON.stringify(text)}`,
    );
  return db;
}
