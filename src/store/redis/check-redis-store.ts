import type { ScriptedRedis } from './scripted-redis.js';
import type { RedisKeys } from './redis-keys.js';
import { isMetaSound } from './live-change.js';

/**
 * What the store says of itself when asked: `down` when Redis did not answer its last command
 * (`healthy` false) or this check; `degraded` when it answers but `uas:meta` or `uas:users` hold
 * what uas cannot read or apply (a live change no config takes) (written by something else: a reset of the emulator repairs them); `up`.
 */
export async function checkRedisStore(
  redis: ScriptedRedis,
  keys: RedisKeys,
  healthy: boolean,
  liveApplies?: (live: unknown) => boolean,
): Promise<'up' | 'down' | 'degraded'> {
  if (!healthy) return 'down';
  try {
    const [meta, users] = await Promise.all([
      redis.hgetall(keys.meta).catch((error: unknown) => {
        if (error instanceof Error && error.message.startsWith('WRONGTYPE')) return undefined;
        throw error;
      }),
      redis.uasUsersCheck(keys.users),
    ]);
    return meta !== undefined && isMetaSound(meta, liveApplies) && users === 'ok'
      ? 'up'
      : 'degraded';
  } catch {
    return 'down';
  }
}
