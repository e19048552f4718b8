import type { RedisHealth } from './redis-health.js';
import type { RedisKeys } from './redis-keys.js';
import type { Publish } from './redis-pubsub.js';
import type { ScriptedRedis } from './scripted-redis.js';
import { createSharedClock, type SharedClock } from './shared-clock.js';

/**
 * The manual clock every instance on the prefix shares, kept at `uas:clock` (the time it started
 * at, at `uas:clock-start`): it starts where the prefix's is, or at `startMs` when there is none
 * yet. A move is sent on the channel of changes; after a reconnect the clock is read again, and a
 * Redis that lost it is given this instance's time.
 */
export async function connectSharedClock(deps: {
  redis: ScriptedRedis;
  keys: RedisKeys;
  health: RedisHealth;
  publish: Publish;
  startMs: number;
}): Promise<SharedClock> {
  const { redis, keys, health } = deps;
  const clock = await createSharedClock({
    store: {
      read: (fallback) => redis.uasClockRead(keys.clock, fallback),
      add: (ms, fallback) => redis.uasClockAdd(keys.clock, fallback, String(ms)),
      write: (ms) => redis.set(keys.clock, ms),
      start: async (fallback) => {
        await redis.set(keys.clockStart, fallback, 'NX');
        return redis.get(keys.clockStart);
      },
    },
    startMs: deps.startMs,
    publish: (value) => void deps.publish(keys.changes, { clock: value }).catch(health.markDown),
    run: health.command,
  });
  redis.on('ready', () => void clock.resync().catch(() => {}));
  return clock;
}
