import type { ScriptedRedis } from './scripted-redis.js';

/** The bucket before a take (tokens and updated-at as text, '' for none) and the time of the take. */
export type TakeReply = [tokens: string, updatedAt: string, now: string];

/** One take waiting for its turn's script: its bucket key and its own arguments. */
interface Waiting {
  key: string;
  args: readonly string[];
  deadline: string;
  resolve(reply: TakeReply | 'late'): void;
  reject(error: unknown): void;
}

/** The most takes one script makes: Redis runs nothing else while a script runs. */
export const MOST_TAKES_A_SCRIPT = 128;

/** The longest takes wait for the runs out before they go anyway, in ms. */
export const MOST_HOLD_MS = 5;

/** Options of {@link createTakeBatcher}; `schedule` and `hold` are for tests. */
export interface TakeBatcherOptions {
  /** Each run makes the takes of one bucket only (a Redis Cluster: a script touches one slot). */
  oneBucketARun: boolean;
  /** Runs `send` once the turn of the event loop is over (`setImmediate`). */
  schedule?: (send: () => void) => void;
  /** Runs `send` after {@link MOST_HOLD_MS} (a timer that keeps no process up); gives a cancel. */
  hold?: (send: () => void) => () => void;
}

/**
 * Sends takes to Redis, in the order they were made, many to a run of the take script (one round
 * trip, at one time), at most {@link MOST_TAKES_A_SCRIPT} a run. The takes of one turn of the
 * event loop go together once the turn is over; while runs are out, takes wait for their answers
 * and then all go at once (a group commit), for at most {@link MOST_HOLD_MS}: under load each run
 * makes more takes, and uas and Redis spend less on each (a run costs Redis about 30 µs before its
 * first take, and uas a write to its socket), where a run a turn made more runs the busier Redis
 * was; a Redis that does not answer delays a take by no more than the hold. Each take keeps its
 * own deadline: one past it is answered 'late' and not made, the others of its run are.
 * `oneBucketARun` (a Redis Cluster, where the keys of one script must share a slot and each
 * bucket has one of its own) makes a run of each bucket's takes of a turn, all sent at the end of
 * the turn: a hot bucket's takes still go together, and no master waits on another.
 */
export function createTakeBatcher(
  redis: ScriptedRedis,
  options: TakeBatcherOptions,
): (
  key: string,
  manualNow: string,
  deadline: string,
  args: readonly string[],
) => Promise<TakeReply | 'late'> {
  const schedule = options.schedule ?? ((send) => setImmediate(send));
  const hold =
    options.hold ??
    ((send) => {
      const timer = setTimeout(send, MOST_HOLD_MS).unref();
      return () => clearTimeout(timer);
    });
  // Takes waiting, in runs of one manual time each: a turn that moved the shared manual clock
  // sends the takes made before the move apart from those made after it.
  let waiting: Batch[] = [];
  let scheduled = false;
  // Runs sent and not answered yet, and the cancel of the hold under way.
  let out = 0;
  let holding: (() => void) | undefined;
  const sendWaiting = () => {
    holding?.();
    holding = undefined;
    const batches = waiting;
    waiting = [];
    for (const { manualNow, takes } of batches)
      for (const run of options.oneBucketARun ? byBucket(takes) : [takes])
        for (let start = 0; start < run.length; start += MOST_TAKES_A_SCRIPT) {
          out++;
          send(redis, manualNow, run.slice(start, start + MOST_TAKES_A_SCRIPT), answered);
        }
  };
  function answered() {
    out--;
    if (out === 0 && !scheduled && waiting.length > 0) sendWaiting();
  }
  const endOfTurn = () => {
    scheduled = false;
    // On a cluster, the runs of a turn go to several masters: none waits for another's answer.
    if (out === 0 || options.oneBucketARun) sendWaiting();
    // With runs out, their answers send what waits, or the hold runs out first.
    else holding ??= hold(sendWaiting);
  };
  return (key, manualNow, deadline, args) =>
    new Promise((resolve, reject) => {
      const take: Waiting = { key, args, deadline, resolve, reject };
      const last = waiting[waiting.length - 1];
      if (last !== undefined && last.manualNow === manualNow) last.takes.push(take);
      else waiting.push({ manualNow, takes: [take] });
      if (!scheduled) {
        scheduled = true;
        schedule(endOfTurn);
      }
    });
}

/** Takes in runs of one bucket each, in the order of their first take; each run in order. */
function byBucket(takes: readonly Waiting[]): Waiting[][] {
  const runs = new Map<string, Waiting[]>();
  for (const take of takes) {
    const run = runs.get(take.key);
    if (run === undefined) runs.set(take.key, [take]);
    else run.push(take);
  }
  return [...runs.values()];
}

/** Takes made at one manual time (or on Redis's clock: ''), in order. */
interface Batch {
  manualNow: string;
  takes: Waiting[];
}

/**
 * Runs the take script once for `takes`, each with its own deadline, and answers each. Takes
 * with the same arguments (one policy, one cost: most of a run) share one group of them, which
 * Redis then reads once rather than once a take.
 */
function send(
  redis: ScriptedRedis,
  manualNow: string,
  takes: readonly Waiting[],
  answered: () => void,
): void {
  const args: string[] = [];
  for (const take of takes) args.push(take.key);
  args.push(manualNow, '');
  // Where, in the script's ARGV (counted from 1), the first group starts.
  const first = 3 + 2 * takes.length;
  const groups: (readonly string[])[] = [];
  const starts: number[] = [];
  let next = first;
  for (const take of takes) {
    let group = groups.findIndex((known) => sameArgs(known, take.args));
    if (group === -1) {
      group = groups.push(take.args) - 1;
      starts.push(next);
      next += take.args.length;
    }
    args.push(take.deadline, String(starts[group]));
  }
  for (const group of groups) for (const arg of group) args.push(arg);
  redis.uasTake(takes.length, ...args).then(
    (reply) => {
      if (reply === 'late') {
        for (const take of takes) take.resolve('late');
        answered();
        return;
      }
      const now = reply[0] ?? '';
      takes.forEach((take, index) => {
        const tokens = reply[1 + 2 * index] ?? '';
        take.resolve(tokens === 'late' ? 'late' : [tokens, reply[2 + 2 * index] ?? '', now]);
      });
      answered();
    },
    (error: unknown) => {
      for (const take of takes) take.reject(error);
      answered();
    },
  );
}

function sameArgs(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}
