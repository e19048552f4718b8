import type { RedisClient } from './scripted-redis.js';
import type { SharedChange } from '../../core/store/emulator-store.js';
import { readChannelMessage, type ChannelMessage } from './channel-message.js';
import type { RedisKeys } from './redis-keys.js';

/** Sends a message on a channel, marked as this instance's. */
export type Publish = (channel: string, message: object) => Promise<unknown>;

/** Messages on a channel, sent by the instance `instance` (an id of its own). */
export function createPublisher(redis: RedisClient, instance: string): Publish {
  return (channel, message) =>
    redis.publish(channel, JSON.stringify({ from: instance, ...message }));
}

/** What the pub/sub of an instance knows: explicit, one record. */
export interface ChannelState {
  /** Hears what the others send: the emulator's, once it listens. */
  apply: ((change: SharedChange) => void) | undefined;
  /** Whether this instance has readers of events (it then subscribes to the events). */
  readersHere: boolean;
  /** Whether another instance has (this one then sends its events). */
  othersWatching: boolean;
}

/**
 * Subscribes to the changes of every instance (and, while this one has readers, to their
 * events), handing `heard` each message it can use. After a reconnect the subscriber subscribes
 * again by itself (ioredis's own resubscription leaves its failure unhandled, which would end
 * the process, when Redis is slow or gone again meanwhile): a failure is tried again while the
 * connection stays, and by the next reconnect once it drops. What was sent while it was away is not heard: `resubscribed` is then
 * called to catch up with what Redis keeps.
 */
export async function subscribeToChannels(deps: {
  subscriber: RedisClient;
  keys: RedisKeys;
  instance: string;
  state: ChannelState;
  heard: (message: ChannelMessage) => void;
  /** Called once the subscriber has subscribed again after a reconnect. */
  resubscribed?: () => void;
}): Promise<void> {
  const { subscriber, keys, state } = deps;
  subscriber.on('message', (channel: string, text: string) => {
    const message = readChannelMessage(channel, text, {
      instance: deps.instance,
      eventsChannel: keys.events,
      readersHere: state.readersHere,
    });
    if (message !== undefined) deps.heard(message);
  });
  await subscriber.subscribe(keys.changes);
  const resubscribe = () => {
    const channels = state.readersHere ? [keys.changes, keys.events] : [keys.changes];
    subscriber
      .subscribe(...channels)
      .then(() => deps.resubscribed?.())
      .catch(() => {
        // Refused while the connection stayed (a timeout on a slow Redis): no reconnect would
        // try again, and the instance would stay deaf to the others. Tried again in a moment.
        const retry = setTimeout(() => {
          if (subscriber.status === 'ready') resubscribe();
        }, RESUBSCRIBE_RETRY_MS);
        retry.unref();
      });
  };
  subscriber.on('ready', resubscribe);
}

/** How long a subscription refused while the connection stayed waits to be tried again. */
const RESUBSCRIBE_RETRY_MS = 500;

/** This instance has readers of events (it subscribes to them), or its last one has gone. */
export function watchEvents(
  subscriber: RedisClient,
  keys: RedisKeys,
  state: ChannelState,
  active: boolean,
): void {
  state.readersHere = active;
  if (active) void subscriber.subscribe(keys.events).catch(() => {});
  else void subscriber.unsubscribe(keys.events).catch(() => {});
}
