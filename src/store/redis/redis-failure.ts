/**
 * Why a Redis command failed, in words for people, and whether it says Redis is away: pure, so
 * that what a 503 says is tested without a Redis.
 */

/** What ioredis says of a command it could not send, or whose connection closed before a reply. */
const NOT_CONNECTED =
  /^(Stream isn't writeable|Connection is closed|Reached the max retries per request|Command aborted due to connection close)/;
/** Errors Redis answers while it cannot serve anyone (loading, busy, a replica, a cluster down). */
const REDIS_AWAY = /^(LOADING|BUSY|MASTERDOWN|READONLY|CLUSTERDOWN|TRYAGAIN)\b/;

/** A script ran past its deadline and changed nothing: its caller has given up, or is about to. */
export class LateReply extends Error {
  override readonly name = 'LateReply';
}

/** A script's reply, unless it came too late to count (then a {@link LateReply} is thrown). */
export function onTime<T>(reply: T | 'late'): T {
  if (reply === 'late') throw new LateReply('late');
  return reply;
}

/** The first line of an error's message. */
export function errorLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split('\n')[0] ?? text;
  // ioredis's cluster client says "Failed to refresh slots cache." whatever went wrong; why the
  // last seed node failed (not a cluster, a wrong password, no TLS there) is in lastNodeError.
  if (line === CLUSTER_ALL_FAILED) {
    const last = (error as { lastNodeError?: unknown }).lastNodeError;
    if (last === undefined || last === null || isNotConnected(last))
      return 'no seed node of the cluster could be reached';
    return `no seed node of the cluster could be used; the last one tried: ${errorLine(last)}`;
  }
  if (/^MOVED \d+ /.test(line))
    return `${line} (a node of a Redis Cluster: give the URL ?cluster=1, see docs/redis.md)`;
  return line;
}

/** What ioredis's cluster client says when no seed node gave it the cluster's slots. */
const CLUSTER_ALL_FAILED = 'Failed to refresh slots cache.';

/** Whether an error is ioredis saying it is not connected (in its own words, which say little). */
export function isNotConnected(error: unknown): boolean {
  return NOT_CONNECTED.test(errorLine(error));
}

/** Why a command failed, and whether that says Redis is away (not that it refused this one). */
export interface RedisFailure {
  /** Follows "Redis at <url>": `did not answer within 1000 ms`, `is not connected: …`. */
  reason: string;
  away: boolean;
}

/**
 * Why a command failed: `timeoutMs` is how long it was given, `lastProblem` why the connection
 * was lost (said instead of ioredis's "Connection is closed").
 */
export function classifyFailure(
  error: unknown,
  timeoutMs: number,
  lastProblem: string | undefined,
): RedisFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof LateReply || message === 'Command timed out')
    return { reason: `did not answer within ${timeoutMs} ms`, away: true };
  if (error instanceof Error && error.name === 'ReplyError')
    return {
      reason: `answered with an error: ${errorLine(error)}`,
      away: REDIS_AWAY.test(message),
    };
  if (NOT_CONNECTED.test(message))
    return {
      reason: `is not connected${lastProblem === undefined ? '' : `: ${lastProblem}`}`,
      away: true,
    };
  return { reason: `failed: ${errorLine(error)}`, away: true };
}

/**
 * What is wrong, for people, when `error` is a refused SELECT of database `db` (ioredis would go
 * on in database 0, among other keys); undefined for any other error.
 */
export function selectRefusal(error: unknown, db: number): string | undefined {
  if ((error as { command?: { name?: unknown } } | null)?.command?.name !== 'select')
    return undefined;
  return /out of range/i.test(errorLine(error))
    ? `database ${db} does not exist (${errorLine(error)})`
    : `database ${db} cannot be selected (${errorLine(error)})`;
}
