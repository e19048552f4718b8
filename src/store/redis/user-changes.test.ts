import { describe, expect, it, vi } from 'vitest';
import type { PrefixState } from './prefix-join.js';
import type { UserChange } from './redis-decoders.js';
import type { RedisHealth } from './redis-health.js';
import type { RedisKeys } from './redis-keys.js';
import type { ScriptedRedis } from './scripted-redis.js';
import { createUserChanges } from './user-changes.js';

/** A prefix joined afresh: no live change, no users, no reset. */
function prefixState(overrides: Partial<PrefixState> = {}): PrefixState {
  return {
    base: '0'.repeat(64),
    joined: false,
    live: undefined,
    liveVersion: 0,
    users: [],
    usersSeen: 0,
    usersLast: undefined,
    resets: 0,
    resetAt: 0,
    ...overrides,
  };
}

/** The users' changes of one instance over a scripted Redis, every read and command let through. */
function changesOver(
  redis: ScriptedRedis,
  prefix: ReturnType<typeof prefixState>,
  publish: (channel: string, message: unknown) => Promise<number>,
  hear: (change: UserChange) => void,
) {
  const health = {
    command: (run: () => Promise<unknown>) => run(),
    read: (run: () => Promise<unknown>) => run(),
    markDown: () => {},
  } as unknown as RedisHealth;
  return createUserChanges({
    time: { deadline: () => '' },
    redis,
    keys: { users: 'uas:users', changes: 'uas:changes' } as RedisKeys,
    health,
    publish,
    prefix,
    hear,
  });
}

describe('createUserChanges', () => {
  it('tells the others of a change kept on the list a reset heard meanwhile left', async () => {
    const prefix = prefixState();
    const list: string[] = [];
    const redis = {
      // The reset is heard here while the push is out; the push lands on the list it left.
      uasUsersPush: async (_key: string, _seen: string, _last: string, text: string) => {
        prefix.resets = 1;
        list.push(text);
        return ['kept', String(list.length)];
      },
      lrange: async () => [...list],
    } as unknown as ScriptedRedis;
    const publish = vi.fn(async () => 1);
    const hear = vi.fn();
    const users = changesOver(redis, prefix, publish, hear);
    const change: UserChange = { type: 'users', users: [{ email: 'zed@example.com' }] };
    expect(await users.send(change, () => {})).toBeUndefined();
    expect(publish).toHaveBeenCalledWith('uas:changes', { change });
    // And applied here, read from the list, as this instance's own: it tells every reader then.
    await vi.waitFor(() => expect(hear).toHaveBeenCalledWith({ ...change, own: true }));
    expect(hear).toHaveBeenCalledTimes(1);
    expect(prefix.usersSeen).toBe(1);
  });

  it('hears a change of another instance read from the list as not its own', async () => {
    const prefix = prefixState();
    const theirs = '[{"email":"amy@example.com"}]';
    const list = [theirs];
    const redis = {
      // The reset is heard here while the push is out; another instance's change came first.
      uasUsersPush: async (_key: string, _seen: string, _last: string, text: string) => {
        prefix.resets = 1;
        list.push(text);
        return ['kept', String(list.length)];
      },
      lrange: async () => [...list],
    } as unknown as ScriptedRedis;
    const hear = vi.fn();
    const users = changesOver(redis, prefix, async () => 1, hear);
    const change: UserChange = { type: 'remove-user', email: 'bob@example.com' };
    expect(await users.send(change, () => {})).toBeUndefined();
    await vi.waitFor(() => expect(hear).toHaveBeenCalledTimes(2));
    expect(hear.mock.calls).toEqual([
      [{ type: 'users', users: [{ email: 'amy@example.com' }] }],
      [{ ...change, own: true }],
    ]);
  });

  it('makes a change again, and tells no one, when a reset heard meanwhile left it unkept', async () => {
    const prefix = prefixState({ usersSeen: 3, usersLast: '["remove","a@example.com"]' });
    const redis = {
      uasUsersPush: async () => {
        prefix.resets = 1;
        return ['stale', '0'];
      },
      lrange: async () => [],
    } as unknown as ScriptedRedis;
    const publish = vi.fn(async () => 1);
    const users = changesOver(redis, prefix, publish, () => {});
    const change = { type: 'remove-user', email: 'b@example.com' } as const;
    expect(await users.send(change, () => {})).toBe('stale');
    expect(publish).not.toHaveBeenCalled();
  });
});
