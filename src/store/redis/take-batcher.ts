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

/**
 * Sends takes to Redis, the takes of one turn of the event loop in one run of the take script
 * (one round trip, in the order they were made, at one time), at most
 * {@link MOST_TAKES_A_SCRIPT} a run. Each take keeps its own deadline: one past it is answered
 * 'late' and not made, the others of its run are. `oneAtATime` (a Redis Cluster,
 * where the buckets of one script must share a slot and each bucket has its own) sends each take
 * alone, at once. `schedule` runs the sending once the turn is over (`setImmediate`).
 */
export function createTakeBatcher(
  redis: ScriptedRedis,
  options: { oneAtATime: boolean; schedule?: (send: () => void) => void },
): (
  key: string,
  manualNow: string,
  deadline: string,
  args: readonly string[],
) => Promise<TakeReply | 'late'> {
  const schedule = options.schedule ?? ((send) => setImmediate(send));
  // Takes waiting, by the manual time they were made at: a turn that moved the shared manual clock
  // sends the takes made before the move apart from those made after it.
  let waiting: Waiting[] = [];
  let waitingNow = '';
  const sendWaiting = () => {
    const run = waiting;
    const manualNow = waitingNow;
    waiting = [];
    for (let start = 0; start < run.length; start += MOST_TAKES_A_SCRIPT)
      send(redis, manualNow, run.slice(start, start + MOST_TAKES_A_SCRIPT));
  };
  return (key, manualNow, deadline, args) =>
    new Promise((resolve, reject) => {
      const take: Waiting = { key, args, deadline, resolve, reject };
      if (options.oneAtATime) return send(redis, manualNow, [take]);
      if (waiting.length > 0 && manualNow !== waitingNow) sendWaiting();
      if (waiting.length === 0) schedule(sendWaiting);
      waitingNow = manualNow;
      waiting.push(take);
    });
}

/**
 * Runs the take script once for `takes`, each with its own deadline, and answers each. Takes
 * with the same arguments (one policy, one cost: most of a run) share one group of them, which
 * Redis then reads once rather than once a take.
 */
function send(redis: ScriptedRedis, manualNow: string, takes: readonly Waiting[]): void {
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
        return;
      }
      const now = reply[0] ?? '';
      takes.forEach((take, index) => {
        const tokens = reply[1 + 2 * index] ?? '';
        take.resolve(tokens === 'late' ? 'late' : [tokens, reply[2 + 2 * index] ?? '', now]);
      });
    },
    (error: unknown) => {
      for (const take of takes) take.reject(error);
    },
  );
}

function sameArgs(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}
