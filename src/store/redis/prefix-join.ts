import { createHash } from 'node:crypto';
import type { ScriptedRedis } from './scripted-redis.js';
import { readUserChanges, type UserChange } from './redis-decoders.js';
import type { RedisHealth } from './redis-health.js';
import type { RedisKeys } from './redis-keys.js';
import { liveFields, readLiveChange, readLiveVersion, type LiveChange } from './live-change.js';
import { subscriberCount } from './redis-nodes.js';

/**
 * What an instance shares with the others on its prefix, as it knows it: explicit, one record,
 * read and written by the channel (a live change heard or made), a reset, and a reconnect.
 */
export interface PrefixState {
  /** The fingerprint of the config (and clock mode) this instance started with. */
  readonly base: string;
  /** Whether this instance found live state of its config there, and took it. */
  readonly joined: boolean;
  /** The live change in force (limits, behaviour, codes, and the limits before), as kept. */
  live: LiveChange | undefined;
  /**
   * The version of the live state it has (`version` of `uas:meta`, counting the changes kept
   * there; 0 before the first): a change is kept only on the version it was made on, and one
   * heard is applied only when it is later.
   */
  liveVersion: number;
  /** Users added and removed live that this instance joined, in order, until its emulator listens. */
  users: UserChange[];
  /** How many entries of `uas:users` this instance has applied (or sent): where a catch-up reads on. */
  usersSeen: number;
  /**
   * The last entry of `uas:users` it has applied (or sent), as kept: a catch-up that finds another
   * there reads the list from its start, as Redis lost it (restarted empty, flushed) since.
   */
  usersLast: string | undefined;
  /**
   * How many resets this instance has made or heard: what was read of `uas:users` before one is
   * not applied after it.
   */
  resets: number;
  /** The version of the live state the last reset made or heard here started. */
  resetAt: number;
}

/**
 * A hash of a config that does not depend on the order of its keys (nor on its `store`), and of
 * the clock's mode: a manual clock and the system clock cannot share buckets.
 */
export function configFingerprint(config: unknown, manualClock: boolean): string {
  const stable = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(stable);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.keys(value)
        .filter((key) => key !== 'store' && key !== '$schema')
        .sort()
        .map((key) => [key, stable((value as Record<string, unknown>)[key])]),
    );
  };
  return createHash('sha256')
    .update(JSON.stringify(stable({ config, clock: manualClock ? 'manual' : 'system' })))
    .digest('hex');
}

/**
 * Joins the live state of the prefix when it was started with the same config (`base`); makes
 * the prefix this config's when no instance runs on it; refuses (throws, in one line) when
 * instances of another config still run there: they would keep their own config beside this one's,
 * and limits would no longer be exact, nor users, resets and the clock the same everywhere.
 */
export async function joinPrefix(options: {
  redis: ScriptedRedis;
  keys: RedisKeys;
  health: RedisHealth;
  base: string;
  display: string;
  /** Whether the parts of a live change found there make a valid config of this instance's. */
  liveApplies?: (live: unknown) => boolean;
}): Promise<PrefixState> {
  const { redis, keys, health, base } = options;
  // Asked before the config is read: an instance of this config that starts at the same moment
  // has then either written it (this one joins) or not yet (both start the prefix, alike).
  const running = await health.command(() => subscriberCount(redis, keys.changes));
  const meta = await health.command(() => redis.hgetall(keys.meta));
  if (meta.base === base) {
    const users = await health.command(() => redis.lrange(keys.users, 0, -1));
    const live = readLiveChange(meta);
    const liveVersion = readLiveVersion(meta);
    const resetAt = readLiveVersion(meta, 'reset');
    // A live change no config takes (written by something other than uas) is not joined: this
    // instance runs the config it started with, as the others do, and health says degraded.
    if (live !== undefined && options.liveApplies?.(live.live) === false)
      return {
        base,
        joined: false,
        live: undefined,
        liveVersion,
        resets: 0,
        resetAt,
        users: readUserChanges(users),
        usersSeen: users.length,
        usersLast: users.at(-1),
      };
    return {
      base,
      joined: true,
      live,
      liveVersion,
      resets: 0,
      resetAt,
      users: readUserChanges(users),
      usersSeen: users.length,
      usersLast: users.at(-1),
    };
  }
  if (running > 0 && meta.base !== undefined)
    throw new Error(
      `prefix "${keys.prefix}" at ${options.display} is used by ${running === 1 ? 'an instance' : `${running} instances`} started with another config (limits, users, clients, codes or clock mode differ): start this one with the same config and flags to join them, or give it a prefix of its own (--store-prefix)`,
    );
  const liveVersion = await resetKeys(redis, keys, health, base);
  return {
    base,
    joined: false,
    live: undefined,
    liveVersion,
    resets: 0,
    resetAt: liveVersion,
    users: [],
    usersSeen: 0,
    usersLast: undefined,
  };
}

/** After Redis lost its data (a restart without persistence): what this instance knows. */
export async function seedMeta(redis: ScriptedRedis, keys: RedisKeys, state: PrefixState) {
  const created = await redis.hsetnx(keys.meta, 'base', state.base);
  if (created === 1)
    await redis.hset(keys.meta, {
      ...(state.live === undefined ? {} : liveFields(state.live)),
      version: String(state.liveVersion),
    });
}

/**
 * Forgets the live state (a reset): `uas:users` and `uas:meta` are written anew, whatever they
 * held, which repairs keys that something other than uas wrote (each its own command: the two
 * keys may be in different slots).
 */
export async function resetPrefix(
  redis: ScriptedRedis,
  keys: RedisKeys,
  health: RedisHealth,
  state: PrefixState,
): Promise<void> {
  const version = await resetKeys(redis, keys, health, state.base);
  state.live = undefined;
  state.liveVersion = version;
  state.usersSeen = 0;
  state.usersLast = undefined;
  state.resets++;
  state.resetAt = version;
}

/**
 * Writes `uas:users` (none) and `uas:meta` (the config's fingerprint) anew, each its own
 * command: on a Redis Cluster the two keys are in different slots, which one command cannot span.
 * Returns the version of the live state it starts: past every one kept before (see
 * RESET_META_SCRIPT).
 */
async function resetKeys(
  redis: ScriptedRedis,
  keys: RedisKeys,
  health: RedisHealth,
  base: string,
): Promise<number> {
  await health.command(() => redis.del(keys.users));
  const version = await health.command(() => redis.uasResetMeta(keys.meta, base));
  return Number(version);
}
