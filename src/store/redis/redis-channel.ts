import type { RedisClient, ScriptedRedis, ScriptTime } from './scripted-redis.js';
import type { SendOutcome, SharedChange, StoreChannel } from '../../core/store/emulator-store.js';
import type { ChannelMessage } from './channel-message.js';
import { liveFields, readLiveChange, readLiveVersion, type LiveChange } from './live-change.js';
import type { PrefixState } from './prefix-join.js';
import { createUserChanges, type UserChanges } from './user-changes.js';
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
  /** The deadlines of the scripts that keep a change. */
  time: ScriptTime;
  /** Keeps bucket keys that a live change made slower to fill (see `keepBucketsRefilling`). */
  keepBucketsRefilling(before: LiveChange | undefined, after: LiveChange): Promise<void>;
  onWarning: ((message: string) => void) | undefined;
  /** How often to ask whether an instance has a reader of events. */
  watchIntervalMs: number;
  /** How often to read the live state Redis keeps, whatever was heard (see `catchUp`). */
  catchUpEveryMs: number;
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
  const users = createUserChanges({
    redis,
    keys,
    health,
    publish: deps.publish,
    prefix,
    time: deps.time,
    hear: hearChange,
  });
  const appliers: Omit<Appliers, 'apply'> = {
    hear: hearChange,
    users,
    readLive: () => readLiveState(deps, appliers),
    reset: (version) =>
      hearShared(prefix, { kind: 'change', change: { type: 'reset' }, version }, appliers),
  };
  const catchUp = () => readKeptState(appliers);
  const stopTimers = startTimers(deps, catchUp);
  const channel: StoreChannel = {
    send: (change, apply) => sendChange(deps, change, { ...appliers, apply }),
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
    // A read under way may have begun before the call: it is awaited, then one begun after.
    catchUpUsers: () => users.catchUp().then(users.catchUp, users.catchUp),
  };
  return {
    channel,
    heard(message) {
      if (message.kind === 'event') state.apply?.({ type: 'event', event: message.event });
      else if (message.kind === 'clock') deps.clock?.heard(message.ms);
      else hearShared(prefix, message, appliers);
    },
    catchUp,
    stop: stopTimers,
  };
}

/**
 * Each `watchIntervalMs`, asks who watches events (and so learns whether Redis is back); each
 * `catchUpEveryMs`, reads the live state Redis keeps, so that a change whose message was missed
 * (a subscriber replaced without a reconnect heard here, as a Redis Cluster may do, or a message
 * that could not be sent) is taken in time. Returns their stop.
 */
function startTimers(deps: RedisChannelDeps, catchUp: () => Promise<void>): () => void {
  const { redis, keys, health, state } = deps;
  const watch = setInterval(() => {
    subscriberCount(redis, keys.events)
      .then((count) => {
        health.markUp();
        state.othersWatching = count - (state.readersHere ? 1 : 0) > 0;
      })
      .catch(() => {});
  }, deps.watchIntervalMs);
  watch.unref();
  let sweeping = false;
  const sweep = setInterval(() => {
    if (sweeping || state.apply === undefined) return;
    sweeping = true;
    void catchUp()
      .catch(() => {})
      .finally(() => {
        sweeping = false;
      });
  }, deps.catchUpEveryMs);
  sweep.unref();
  return () => {
    clearInterval(watch);
    clearInterval(sweep);
  };
}

/**
 * Reads the live change Redis keeps and takes it when it is not the one this instance has (a
 * reset it missed first), but for a read that a change heard meanwhile may have moved past.
 */
async function readLiveState(
  deps: RedisChannelDeps,
  appliers: Omit<Appliers, 'apply'>,
  tries = 1,
): Promise<void> {
  const { redis, keys, health, prefix } = deps;
  const [version0, live0] = [prefix.liveVersion, prefix.live];
  const meta = await health.read(() => redis.hgetall(keys.meta));
  // No version: Redis lost uas:meta (restarted empty, flushed), or an instance is writing it
  // back (seedMeta: its fingerprint first, then the version): it tells nothing. Taken for a live
  // state of version 0, the version written back would then read as a reset this instance
  // missed, and it would drop the users added live, while the others kept them.
  if (meta.version === undefined) return;
  const kept = readLiveChange(meta);
  const version = readLiveVersion(meta);
  // A reset made since the last one made here, missed (sent while the subscriber was away):
  // made now, with the live change kept after it in the same read (no moment with the config of
  // the start between them); what Redis kept since is then read again.
  const resetAt = readLiveVersion(meta, 'reset');
  if (resetAt > prefix.resetAt && resetAt <= version) {
    appliers.reset(resetAt);
    if (kept !== undefined && version > resetAt) adoptLive(prefix, kept, version, appliers);
    return;
  }
  // Nothing heard or kept here while the read was out: what Redis keeps is the live state,
  // even at a version behind this instance's (Redis flushed or reset meanwhile, a version
  // written by hand, a change sent with a version no instance kept).
  if (prefix.liveVersion === version0 && prefix.live === live0)
    adoptLive(prefix, kept, version, appliers);
  // Else an earlier version is one a change heard since this read was sent has moved past.
  else if (version >= prefix.liveVersion) adoptLive(prefix, kept, version, appliers);
  else if (tries < 3) await readLiveState(deps, appliers, tries + 1);
}

/**
 * A change another instance sent, applied here: a config change later than the one this
 * instance has, a change of users read from the list (in its order, with whatever this instance
 * has not applied yet), a reset.
 */
function hearShared(
  prefix: PrefixState,
  message: Extract<ChannelMessage, { kind: 'change' }>,
  { hear, users, readLive }: Pick<Appliers, 'hear' | 'users' | 'readLive'>,
): void {
  const { change, version } = message;
  if (change.type === 'users' || change.type === 'remove-user') {
    void users.catchUp().catch(() => {});
    return;
  }
  if (change.type === 'config') {
    if (version !== undefined) {
      // Not later than the one this instance has: an earlier one, in it already, or the live
      // state started over behind this instance's (see readLive), which Redis then tells.
      if (version <= prefix.liveVersion) {
        void readLive().catch(() => {});
        return;
      }
      prefix.liveVersion = version;
    }
    prefix.live = change;
  } else if (change.type === 'reset') {
    // Made again when made here already (read from Redis before it was heard), which is
    // harmless: what Redis kept since is read again after it (a version of uas:meta cannot tell
    // which reset came first: Redis may have restarted, or been written by hand, since). The
    // version it started is past every change kept before it: one of those heard late is not
    // taken for a later one.
    prefix.live = undefined;
    prefix.liveVersion = version ?? 0;
    prefix.usersSeen = 0;
    prefix.usersLast = undefined;
    prefix.resets++;
    if (version !== undefined) prefix.resetAt = version;
  }
  hear(change);
  // Changes kept since the reset cleared Redis may have been heard before it: read them again.
  if (change.type === 'reset') void readKeptState({ users, readLive });
}

/**
 * Reads what Redis keeps and takes what this instance has not: the live change, then the users
 * past those it has applied (after a reset, from the start of the list). Each read that fails is
 * let go: the next catch-up tries again.
 */
async function readKeptState({
  users,
  readLive,
}: Pick<Appliers, 'users' | 'readLive'>): Promise<void> {
  await readLive().catch(() => {});
  await users.catchUp().catch(() => {});
}

/** The live change Redis keeps, and its version, taken here (applied when it is another). */
function adoptLive(
  prefix: PrefixState,
  kept: LiveChange | undefined,
  version: number,
  { hear, reset }: Pick<Appliers, 'hear' | 'reset'>,
): void {
  // No live change, at a version past this instance's: a reset it has not heard (sent while its
  // subscriber was away, or not yet come), made here now.
  if (kept === undefined && version > prefix.liveVersion) return reset(version);
  prefix.liveVersion = version;
  if (kept === undefined || sameLiveChange(kept, prefix.live)) return;
  prefix.live = kept;
  hear(kept);
}

/** Whether two live changes are the same change, as Redis keeps them. */
function sameLiveChange(a: LiveChange, b: LiveChange | undefined): boolean {
  if (b === undefined) return false;
  const [kept, held] = [liveFields(a), liveFields(b)];
  return kept.live === held.live && kept.past === held.past;
}

/** What a change sent is applied with, here. */
interface Appliers {
  /** Applies another instance's change. */
  hear: (change: SharedChange) => void;
  /** Applies this instance's own change, once kept. */
  apply: (() => void) | undefined;
  users: UserChanges;
  /** Reads the live change Redis keeps, and applies it when it is not the one this instance has. */
  readLive(): Promise<void>;
  /** Applies a reset that started the live state at `version`, as if heard. */
  reset(version: number): void;
}

/** Sends a change: an event as it comes; any other kept first (then told), else refused. */
function sendChange(
  deps: RedisChannelDeps,
  change: SharedChange,
  appliers: Appliers,
): Promise<SendOutcome> | undefined {
  const { keys, health, publish } = deps;
  if (change.type === 'event') {
    if (deps.state.othersWatching)
      void publish(keys.events, { event: change.event }).catch(health.markDown);
    return undefined;
  }
  if (change.type === 'config') return sendConfig(deps, change, appliers);
  if (change.type === 'users' || change.type === 'remove-user')
    return appliers.users.send(change, appliers.apply);
  // A reset: kept (the store cleared) by the caller; told here, with the version of the live
  // state it started (read at once: a change heard meanwhile may move it).
  const version = deps.prefix.liveVersion;
  return health.command(async () => {
    await publish(keys.changes, { change, version });
    appliers.apply?.();
    void readKeptState(appliers);
    return undefined;
  });
}

/**
 * Keeps a live config change as the next version of the live state, on the version this instance
 * has (the one it was made on), applies it, and sends it with its version. When another
 * instance's change was kept first, that one is applied here, and the change is to be made again
 * on it (`stale`).
 */
async function sendConfig(
  deps: RedisChannelDeps,
  change: LiveChange,
  { hear, apply, reset }: Appliers,
): Promise<SendOutcome> {
  const { redis, keys, health, publish, prefix } = deps;
  const { live, past } = liveFields(change);
  // Read at once: the version of the config the change was just made on.
  const on = String(prefix.liveVersion);
  const before = prefix.live;
  const outcome = await health.command(() =>
    // Answered in the order sent, each before anything else runs: nothing heard comes between
    // the moment a change is kept and the moment it is applied here.
    redis.uasLive(keys.meta, on, live, past, prefix.base).then((reply): SendOutcome => {
      const version = Number(reply[1]);
      if (reply[0] !== 'kept') {
        const kept = readLiveChange({ live: reply[2] ?? '', past: reply[3] ?? '' });
        adoptLive(prefix, kept, version, { hear, reset });
        return 'stale';
      }
      // A later change, made on this one, was heard first: it holds this one.
      if (version <= prefix.liveVersion) return 'superseded';
      prefix.live = change;
      prefix.liveVersion = version;
      apply?.();
      void publish(keys.changes, { change, version }).catch(health.markDown);
      return undefined;
    }),
  );
  // Told everywhere: a bucket key that would now expire before its bucket is full again
  // (a slower rate, a larger burst) is kept longer. Once, by the instance that made it.
  if (outcome === undefined) await deps.keepBucketsRefilling(before, change).catch(() => {});
  return outcome;
}
