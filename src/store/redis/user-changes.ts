import type { SendOutcome, SharedChange } from '../../core/store/emulator-store.js';
import type { PrefixState } from './prefix-join.js';
import { readUserChanges, userChangeText, type UserChange } from './redis-decoders.js';
import type { RedisHealth } from './redis-health.js';
import type { RedisKeys } from './redis-keys.js';
import type { Publish } from './redis-pubsub.js';
import { onTime } from './redis-failure.js';
import type { ScriptedRedis, ScriptTime } from './scripted-redis.js';

/**
 * Users added and removed live, in the order of `uas:users`, on every instance: a change is kept
 * only on the list its instance has applied (else it is told what came first, applies it, and
 * makes its change again), and is applied there at the moment it is kept; a change heard from
 * another instance is read from the list, with whatever this instance has not applied before it.
 */
export interface UserChanges {
  /** Keeps a change, then calls `apply` (in its place), then tells the others. */
  send(change: UserChange, apply: (() => void) | undefined): Promise<SendOutcome>;
  /** Applies the entries past those this instance has applied, in order (one read at a time). */
  catchUp(): Promise<void>;
}

/** What the users of a store's channel work with. */
export interface UserChangesDeps {
  redis: ScriptedRedis;
  keys: RedisKeys;
  health: RedisHealth;
  publish: Publish;
  prefix: PrefixState;
  /** The deadline of a change sent: one Redis reaches after its 503 is not kept. */
  time: Pick<ScriptTime, 'deadline'>;
  /** Applies another instance's change here. */
  hear(change: SharedChange): void;
}

/** The users of a store's channel, in the order of `uas:users`. */
export function createUserChanges(deps: UserChangesDeps): UserChanges {
  const { redis, keys, health, prefix } = deps;
  // This instance's changes kept after a reset heard while they were out (see send), by their
  // place in the list: read back from it, they are heard as its own, to tell every reader.
  const own = new Map<number, string>();
  let reading: Promise<void> | undefined;
  let readAgain = false;
  const catchUp = (): Promise<void> => {
    if (reading !== undefined) {
      // Read again once the read under way is done: it may have been sent before this change.
      readAgain = true;
      return reading;
    }
    const resets = prefix.resets;
    reading = health
      .read(() => entriesPastSeen(redis, keys, prefix))
      .then(({ from, entries, lost }) => {
        // Read before a reset made since: the list it read is gone; read it again.
        if (prefix.resets !== resets) readAgain = true;
        else applyEntries(deps, from, entries, lost, own);
      })
      .finally(() => {
        reading = undefined;
        if (readAgain) {
          readAgain = false;
          void catchUp().catch(() => {});
        }
      });
    return reading;
  };
  return {
    catchUp,
    send: (change, apply) => {
      const text = userChangeText(change);
      // Read at once: the list the change was just made on.
      const seen = String(prefix.usersSeen);
      const last = prefix.usersLast ?? '';
      const resets = prefix.resets;
      return health.command(() =>
        // Answered in the order sent, each before anything else runs: nothing is applied
        // between the moment a change is kept and the moment it is applied here.
        redis
          .uasUsersPush(keys.users, seen, last, text, deps.time.deadline())
          .then((answer): SendOutcome => {
            // Past its deadline, kept nowhere: its caller answers (or has answered) 503.
            const reply = onTime(answer);
            if (prefix.resets !== resets) {
              // A reset came here meanwhile: a change kept before it is gone with it, and one kept
              // after it is read with the list (see readKeptState); one not kept is made again.
              if (reply[0] === 'kept') own.set(Number(reply[1]), text);
              void catchUp().catch(() => {});
              if (reply[0] !== 'kept') return 'stale';
              // Told all the same: the others may have read the list the reset left before it was
              // kept there (a list started anew takes a change made on none), and would never read
              // it again.
              void deps.publish(keys.changes, { change }).catch(health.markDown);
              return undefined;
            }
            if (reply[0] !== 'kept') {
              const from = Number(reply[1]);
              applyEntries(deps, from, reply.slice(2), from === 0 && seen !== '0');
              return 'stale';
            }
            prefix.usersSeen = Number(reply[1]);
            prefix.usersLast = text;
            apply?.();
            void deps.publish(keys.changes, { change }).catch(health.markDown);
            return undefined;
          }),
      );
    },
  };
}

/**
 * Applies entries of `uas:users`, the first of them its entry `from + 1` (counted from 1), but
 * those this instance has applied already. After the list was `lost`, they are applied again
 * from its start, which leaves each user as the list says. An entry `own` holds at its place is
 * this instance's change, heard as its own.
 */
function applyEntries(
  deps: UserChangesDeps,
  from: number,
  entries: readonly string[],
  lost: boolean,
  own?: Map<number, string>,
): void {
  const { prefix } = deps;
  if (lost) {
    prefix.usersSeen = 0;
    prefix.usersLast = undefined;
  }
  entries.forEach((text, at) => {
    const place = from + at + 1;
    if (place !== prefix.usersSeen + 1) return;
    prefix.usersSeen = place;
    prefix.usersLast = text;
    const mine = own?.get(place) === text;
    own?.delete(place);
    for (const change of readUserChanges([text]))
      deps.hear(mine ? { ...change, own: true } : change);
  });
}

/**
 * The entries of `uas:users` past those this instance has applied (`from` of them), or the
 * whole list (`from` 0) when the last entry it applied is no longer where it was: Redis lost the
 * list (restarted empty, flushed) since.
 */
async function entriesPastSeen(
  redis: ScriptedRedis,
  keys: RedisKeys,
  prefix: PrefixState,
): Promise<{ from: number; entries: string[]; lost: boolean }> {
  const [seen, last] = [prefix.usersSeen, prefix.usersLast];
  if (seen === 0) return { from: 0, entries: await redis.lrange(keys.users, 0, -1), lost: false };
  const read = await redis.lrange(keys.users, seen - 1, -1);
  if (read[0] === last) return { from: seen, entries: read.slice(1), lost: false };
  return { from: 0, entries: await redis.lrange(keys.users, 0, -1), lost: true };
}
