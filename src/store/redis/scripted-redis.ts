import type { Cluster, Redis } from 'ioredis';
import {
  CLOCK_ADD_SCRIPT,
  CLOCK_READ_SCRIPT,
  ISSUE_SCRIPT,
  KEEP_SCRIPT,
  LIVE_SCRIPT,
  RESET_META_SCRIPT,
  NOW_SCRIPT,
  TAKE_SCRIPT,
  VERIFY_SCRIPT,
} from './redis-scripts.js';
import { USERS_CHECK_SCRIPT, USERS_PUSH_SCRIPT } from './users-lua.js';

/** The scripts, by name: each but uasNow answers 'late' when run past its deadline. */
export interface ScriptCommands {
  /** How many keys, the keys, then the arguments (see TAKE_SCRIPT). */
  uasTake(keys: number, ...keysAndArgs: string[]): Promise<string[] | 'late'>;
  uasIssue(key: string, ...args: string[]): Promise<string>;
  uasVerify(key: string, ...args: string[]): Promise<string[] | 'late'>;
  uasNow(manual: string, deadline: ''): Promise<string>;
  uasClockRead(key: string, fallback: string): Promise<string>;
  uasClockAdd(key: string, fallback: string, ms: string): Promise<string>;
  uasKeep(key: string, ttlMs: string): Promise<number>;
  /**
   * The meta key, the version the change was made on, its live parts and past limits, and the
   * config's fingerprint (written when the key is gone).
   */
  uasLive(
    key: string,
    version: string,
    live: string,
    past: string,
    base: string,
  ): Promise<string[]>;
  /** The meta key and the config's fingerprint: the version of the live state it starts. */
  uasResetMeta(key: string, base: string): Promise<string>;
  /** The users list, how many entries the change was made on, the last of them, the change. */
  uasUsersPush(
    key: string,
    seen: string,
    last: string,
    text: string,
    deadline: string,
  ): Promise<string[] | 'late'>;
  uasUsersCheck(key: string): Promise<'ok' | 'junk'>;
}

/** A client of one Redis server, or of a Redis Cluster. */
export type RedisClient = Redis | Cluster;

/**
 * A client that runs the store's scripts (ioredis sends EVALSHA, and EVAL on NOSCRIPT; on a
 * cluster, to the master of the one key each script touches: the take script is sent one key at
 * a time there).
 */
export type ScriptedRedis = RedisClient & ScriptCommands;

/** Teaches a client the store's scripts. */
export function defineScripts(redis: RedisClient): ScriptedRedis {
  redis.defineCommand('uasTake', { lua: TAKE_SCRIPT });
  redis.defineCommand('uasIssue', { numberOfKeys: 1, lua: ISSUE_SCRIPT });
  redis.defineCommand('uasVerify', { numberOfKeys: 1, lua: VERIFY_SCRIPT });
  redis.defineCommand('uasNow', { numberOfKeys: 0, lua: NOW_SCRIPT });
  redis.defineCommand('uasClockRead', { numberOfKeys: 1, lua: CLOCK_READ_SCRIPT });
  redis.defineCommand('uasClockAdd', { numberOfKeys: 1, lua: CLOCK_ADD_SCRIPT });
  redis.defineCommand('uasKeep', { numberOfKeys: 1, lua: KEEP_SCRIPT });
  redis.defineCommand('uasLive', { numberOfKeys: 1, lua: LIVE_SCRIPT });
  redis.defineCommand('uasResetMeta', { numberOfKeys: 1, lua: RESET_META_SCRIPT });
  redis.defineCommand('uasUsersPush', { numberOfKeys: 1, lua: USERS_PUSH_SCRIPT });
  redis.defineCommand('uasUsersCheck', { numberOfKeys: 1, lua: USERS_CHECK_SCRIPT });
  return redis as ScriptedRedis;
}

/** What a script of a decision is sent first: the time to decide at, and its deadline. */
export interface ScriptTime {
  /** The shared manual clock's time, as text; '' for Redis's own clock. */
  manualNow(): string;
  /** The Redis time past which the script changes nothing (see redis-time.ts); '' for none. */
  deadline(): string;
}
