import type { RedisClient, ScriptedRedis } from './scripted-redis.js';
import type { SendOutcome, SharedChange, StoreChannel } from '../../core/store/emulator-store.js';
import type { ChannelMessage } from './channel-message.js';
import { liveFields, readLiveChange, readLiveVersion, type LiveChange } from './live-change.js';
import type { PrefixState } from './prefix-join.js';
import { readUserChanges, userChangeText } from './redis-decoders.js';
import { errorLine } from './redis-failure.js';
import { subscriberCount } from './redis-nodes.js';
import type { RedisHealth } from './redis-health.js';
import type { RedisKeys } from './redis-keys.js';
import { watchEvents, type ChannelState, type Publish } from './redis-pubsub.js';
import type { SharedClock } from './shared-clock.js';

/** The changes another instance sends that this one applies (events go to its readers). */
const SHARED_CHANGES = new Set<string>(['config', 'users', 'remove-user', 'reset']);

/** What the channel of a store works with. */
export interface RedisChannelDeps {
  redis: ScriptedRedis;
  subscriber: RedisClient;
  keys: RedisKeys;
  health: RedisHealth;
  publish: Publish;
  prefix: PrefixState;
  state: ChannelState;
  clock: SharedClock | undefined;
  /** Keeps bucket keys that a live change made slower to fill (see `keepBucketsRefilling`). */
  keepBucketsRefilling(before: LiveChange | undefined, after: LiveChange): Promise<void>;
  onWarning: ((message: string) => void) | undefined;
  /** How often to ask whether an instance has a reader of events. */
  watchIntervalMs: number;
}

/** The channel of a store, what it hears, and its end. */
export interface RedisChannel {
  channel: StoreChannel;
  /** Hands on a message of another instance. */
  heard(message: ChannelMessage): void;
  /**
   * After the subscriber was away (a reconnect): applies the live change Redis keeps when it is
   * not the one this instance has, and the users added or removed past those it has seen, since
   * a change sent meanwhile was not heard.
   */
  catchUp(): Promise<void>;
  /** Stops asking who watches events. */
  stop(): void;
}

/**
 * How the instances on a prefix hear each other: a live change, users added or removed, or a reset is kept
 * in Redis, then sent; events are sent only while an instance has readers. Each second (an
 * answer being one), it asks who watches events, and learns whether Redis is back, so that health
 * and the metrics say so even while no request comes to try it.
 */
export function createRedisChannel(deps: RedisChannelDeps): RedisChannel {
  const { redis, keys, health, prefix, state } = deps;
  const hearChange = (change: SharedChange) => {
    if (state.apply === undefined) return;
    try {
      if (SHARED_CHANGES.has(change.type)) state.apply(change);
    } catch (error) {
      deps.onWarning?.(
        `a ${change.type} change from another instance was not applied: ${errorLine(error)}`,
      );
    }
  };
  const timer = setInterval(() => {
    subscriberCount(redis, keys.events)
      .then((count) => {
        health.markUp();
        state.othersWatching = count - (state.readersHere ? 1 : 0) > 0;
      })
      .catch(() => {});
  }, deps.watchIntervalMs);
  timer.unref();
  const channel: StoreChannel = {
    send: (change) => sendChange(deps, change, hearChange),
    listen(listener) {
      state.apply = listener;
      // The live state this instance joins, as if it had just been sent.
      if (prefix.live !== undefined) hearChange(prefix.live);
      for (const change of prefix.users) hearChange(change);
      prefix.users = [];
    },
    get watched() {
      return state.othersWatching;
    },
    watching: (active) => watchEvents(deps.subscriber, keys, state, active),
  };
  return {
    channel,
    heard(message) {
      if (message.kind === 'event') state.apply?.({ type: 'event', event: message.event });
      else if (message.kind === 'clock') deps.clock?.heard(message.ms);
      else {
        const { change } = message;
        if (change.type === 'config') {
          // An earlier version than the one this instance has is in it already.
          if (message.version !== undefined) {
            if (message.version <= prefix.liveVersion) return;
            prefix.liveVersion = message.version;
          }
          prefix.live = change;
        } else if (change.type === 'users' || change.type === 'remove-user') {
          prefix.usersSeen++;
          prefix.usersLast = userChangeText(change);
        } else if (change.type === 'reset') {
          prefix.live = undefined;
          prefix.liveVersion = 0;
          prefix.usersSeen = 0;
          prefix.usersLast = undefined;
        }
        hearChange(change);
      }
    },
    async catchUp() {
      const [meta, users] = await health.read(() =>
        Promise.all([redis.hgetall(keys.meta), usersPastSeen(redis, keys, prefix)]),
      );
      const kept = readLiveChange(meta);
      const version = readLiveVersion(meta);
      // An earlier version is one a change heard since this read was sent has moved past.
      if (version >= prefix.liveVersion) {
        prefix.liveVersion = version;
        if (kept !== undefined && !sameLiveChange(kept, prefix.live)) {
          prefix.live = kept;
          hearChange(kept);
        }
      }
      for (const change of readUserChanges(users)) hearChange(change);
    },
    stop: () => clearInterval(timer),
  };
}

/**
 * The entries of `uas:users` past those this instance has seen, counted as seen. The entry it saw
 * last is read again to tell the list it saw from one Redis started anew (restarted empty,
 * flushed): then every entry is past what it has seen, and applying them again in order leaves
 * each user as the list says.
 */
async function usersPastSeen(
  redis: RedisClient,
  keys: RedisKeys,
  prefix: PrefixState,
): Promise<string[]> {
  const seen = prefix.usersSeen;
  const read = await redis.lrange(keys.users, Math.max(seen - 1, 0), -1);
  const same = seen === 0 || read[0] === prefix.usersLast;
  const past = same ? read.slice(seen === 0 ? 0 : 1) : await redis.lrange(keys.users, 0, -1);
  prefix.usersSeen = same ? seen + past.length : past.length;
  if (past.length > 0 || !same) prefix.usersLast = past.at(-1);
  return past;
}

/** Whether two live changes are the same change, as Redis keeps them. */
function sameLiveChange(a: LiveChange, b: LiveChange | undefined): boolean {
  if (b === undefined) return false;
  const [kept, held] = [liveFields(a), liveFields(b)];
  return kept.live === held.live && kept.past === held.past;
}

/** Sends a change: an event as it comes; any other kept first (then told), else refused. */
function sendChange(
  deps: RedisChannelDeps,
  change: SharedChange,
  hear: (change: SharedChange) => void,
): Promise<SendOutcome> | undefined {
  const { redis, keys, health, publish, prefix } = deps;
  if (change.type === 'event') {
    if (deps.state.othersWatching)
      void publish(keys.events, { event: change.event }).catch(health.markDown);
    return undefined;
  }
  if (change.type === 'config') return sendConfig(deps, change, hear);
  // Kept, then told: a change Redis did not take is applied nowhere (the dev API says 503).
  return health.command(async () => {
    if (change.type === 'users' || change.type === 'remove-user') {
      const text = userChangeText(change);
      await redis.rpush(keys.users, text);
      prefix.usersSeen++;
      prefix.usersLast = text;
    }
    await publish(keys.changes, { change });
    return undefined;
  });
}

/**
 * Keeps a live config change as the next version of the live state, on the version this instance
 * has (the one it was made on), then sends it with its version. When another instance's change
 * was kept first, that one is applied here, and the change is to be made again on it (`stale`).
 */
async function sendConfig(
  deps: RedisChannelDeps,
  change: LiveChange,
  hear: (change: SharedChange) => void,
): Promise<SendOutcome> {
  const { redis, keys, health, publish, prefix } = deps;
  const { live, past } = liveFields(change);
  // Read at once: the version of the config the change was just made on.
  const on = String(prefix.liveVersion);
  const reply = await health.command(async () => {
    const answer = await redis.uasLive(keys.meta, on, live, past);
    if (answer[0] === 'kept') await publish(keys.changes, { change, version: Number(answer[1]) });
    return answer;
  });
  const version = Number(reply[1]);
  if (reply[0] !== 'kept') {
    const kept = readLiveChange({ live: reply[2] ?? '', past: reply[3] ?? '' });
    prefix.liveVersion = version;
    if (kept !== undefined && !sameLiveChange(kept, prefix.live)) {
      prefix.live = kept;
      hear(kept);
    }
    return 'stale';
  }
  // Told everywhere: a bucket key that would now expire before its bucket is full again
  // (a slower rate, a larger burst) is kept longer. Once, by the instance that made it.
  await deps.keepBucketsRefilling(prefix.live, change).catch(() => {});
  // Decided last, nothing awaited after it: a later change heard meanwhile was made on this one.
  if (version <= prefix.liveVersion) return 'superseded';
  prefix.live = change;
  prefix.liveVersion = version;
  return undefined;
}
