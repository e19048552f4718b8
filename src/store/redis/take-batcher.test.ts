import { describe, expect, it } from 'vitest';
import type { ScriptedRedis } from './scripted-redis.js';
import { createTakeBatcher, MOST_TAKES_A_SCRIPT } from './take-batcher.js';

/** A client whose take script answers each key with its own tokens, and keeps every call made. */
function fakeRedis(answer?: (keys: string[]) => Promise<string[] | 'late'>) {
  const calls: string[][] = [];
  const redis = {
    uasTake(count: number, ...keysAndArgs: string[]) {
      calls.push([String(count), ...keysAndArgs]);
      const keys = keysAndArgs.slice(0, count);
      if (answer) return answer(keys);
      return Promise.resolve(['1000', ...keys.flatMap((key) => [`t-${key}`, `u-${key}`])]);
    },
  } as unknown as ScriptedRedis;
  return { redis, calls };
}

/** A schedule run by hand: what was scheduled runs when `run()` is called. */
function manualSchedule() {
  const queued: Array<() => void> = [];
  return {
    schedule: (send: () => void) => void queued.push(send),
    run: () => queued.splice(0).forEach((send) => send()),
    get pending() {
      return queued.length;
    },
  };
}

describe('createTakeBatcher', () => {
  it('sends the takes of one turn in one script run, in order, each answered with its bucket', async () => {
    const { redis, calls } = fakeRedis();
    const turn = manualSchedule();
    const take = createTakeBatcher(redis, { oneBucketARun: false, schedule: turn.schedule });
    const answers = [
      take('a', '', '900', ['1', '2']),
      take('b', '', '800', ['3']),
      take('c', '', '', ['4', '5', '6']),
    ];
    expect(calls).toHaveLength(0);
    expect(turn.pending).toBe(1);
    turn.run();
    // Each take's deadline and where its arguments start in ARGV, then the arguments.
    expect(calls).toEqual([
      ['3', 'a', 'b', 'c', '', '', '900', '9', '800', '11', '', '12', '1', '2', '3', '4', '5', '6'],
    ]);
    expect(await Promise.all(answers)).toEqual([
      ['t-a', 'u-a', '1000'],
      ['t-b', 'u-b', '1000'],
      ['t-c', 'u-c', '1000'],
    ]);
  });

  it('sends the arguments takes share once, each take pointing at its own', async () => {
    const { redis, calls } = fakeRedis();
    const turn = manualSchedule();
    const take = createTakeBatcher(redis, { oneBucketARun: false, schedule: turn.schedule });
    const answers = [
      take('a', '', '1', ['5', '0.1', '1']),
      take('b', '', '2', ['5', '0.1', '2']),
      take('c', '', '3', ['5', '0.1', '1']),
      take('d', '', '4', ['5', '0.1']),
      take('e', '', '5', ['5', '0.1', '2']),
    ];
    turn.run();
    // Groups from ARGV[13]: [5, 0.1, 1] at 13, [5, 0.1, 2] at 16, [5, 0.1] at 19.
    expect(calls).toEqual([
      [
        ...['5', 'a', 'b', 'c', 'd', 'e', '', ''],
        ...['1', '13', '2', '16', '3', '13', '4', '19', '5', '16'],
        ...['5', '0.1', '1', '5', '0.1', '2', '5', '0.1'],
      ],
    ]);
    await Promise.all(answers);
  });

  it('sends takes made before and after a move of the manual clock apart', async () => {
    const { redis, calls } = fakeRedis();
    const turn = manualSchedule();
    const take = createTakeBatcher(redis, { oneBucketARun: false, schedule: turn.schedule });
    const answers = [
      take('a', '5', '', ['x']),
      take('b', '9', '', ['y']),
      take('c', '9', '', ['z']),
    ];
    turn.run();
    expect(calls).toEqual([
      ['1', 'a', '5', '', '', '5', 'x'],
      ['2', 'b', 'c', '9', '', '', '7', '', '8', 'y', 'z'],
    ]);
    await Promise.all(answers);
  });

  it(`makes at most ${MOST_TAKES_A_SCRIPT} takes a run`, async () => {
    const { redis, calls } = fakeRedis();
    const turn = manualSchedule();
    const take = createTakeBatcher(redis, { oneBucketARun: false, schedule: turn.schedule });
    const answers = Array.from({ length: MOST_TAKES_A_SCRIPT * 2 + 1 }, (_, index) =>
      take(`k${index}`, '', '', []),
    );
    turn.run();
    expect(calls.map((call) => Number(call[0]))).toEqual([
      MOST_TAKES_A_SCRIPT,
      MOST_TAKES_A_SCRIPT,
      1,
    ]);
    expect((await answers.at(-1))?.[0]).toBe(`t-k${MOST_TAKES_A_SCRIPT * 2}`);
  });

  it('answers late only the takes the script found past their own deadline', async () => {
    const { redis } = fakeRedis(() => Promise.resolve(['1000', 'late', '', '3', '7']));
    const turn = manualSchedule();
    const take = createTakeBatcher(redis, { oneBucketARun: false, schedule: turn.schedule });
    const answers = [take('a', '', '1', []), take('b', '', '9', [])];
    turn.run();
    expect(await Promise.all(answers)).toEqual(['late', ['3', '7', '1000']]);
  });

  it('answers every take of a run late when the run was late, and fails them all with its error', async () => {
    let reply: Promise<string[] | 'late'> = Promise.resolve('late');
    const { redis } = fakeRedis(() => reply);
    const turn = manualSchedule();
    const take = createTakeBatcher(redis, { oneBucketARun: false, schedule: turn.schedule });
    const late = [take('a', '', '1', []), take('b', '', '2', [])];
    turn.run();
    expect(await Promise.all(late)).toEqual(['late', 'late']);
    reply = Promise.reject(new Error('Connection is closed.'));
    const failed = [take('a', '', '', []), take('b', '', '', [])];
    turn.run();
    for (const answer of failed) await expect(answer).rejects.toThrow('Connection is closed.');
  });

  it('holds the takes made while a run is out, and sends them all in one run once it is answered', async () => {
    const replies: Array<(reply: string[] | Error) => void> = [];
    const { redis, calls } = fakeRedis(
      (keys) =>
        new Promise((resolve, reject) => {
          replies.push((reply) =>
            reply instanceof Error
              ? reject(reply)
              : resolve(['1000', ...keys.flatMap((key) => [`t-${key}`, `u-${key}`])]),
          );
        }),
    );
    const turn = manualSchedule();
    const holds = manualSchedule();
    const cancelled: number[] = [];
    const take = createTakeBatcher(redis, {
      oneBucketARun: false,
      schedule: turn.schedule,
      hold: (send) => {
        holds.schedule(send);
        const index = holds.pending;
        return () => void cancelled.push(index);
      },
    });
    const first = take('a', '', '', []);
    turn.run();
    expect(calls).toHaveLength(1);
    // Two more turns while the first run is out: their takes wait for its answer, under one hold.
    const second = [take('b', '', '', []), take('c', '', '', [])];
    turn.run();
    const third = take('d', '', '', []);
    turn.run();
    expect(calls).toHaveLength(1);
    expect(holds.pending).toBe(1);
    replies[0]?.(['']);
    expect(await first).toEqual(['t-a', 'u-a', '1000']);
    // The answer sent them, and called the hold off.
    expect(cancelled).toEqual([1]);
    expect(calls.map((call) => call.slice(1, 1 + Number(call[0])))).toEqual([
      ['a'],
      ['b', 'c', 'd'],
    ]);
    // A run that fails sends what waits all the same.
    const fourth = take('e', '', '', []);
    turn.run();
    replies[1]?.(new Error('Command timed out'));
    for (const answer of [...second, third]) await expect(answer).rejects.toThrow('timed out');
    expect(calls.map((call) => call.slice(1, 1 + Number(call[0])))).toEqual([
      ['a'],
      ['b', 'c', 'd'],
      ['e'],
    ]);
    replies[2]?.(['']);
    expect(await fourth).toEqual(['t-e', 'u-e', '1000']);
  });

  it('sends what waits when the runs out are not answered within the hold', async () => {
    const { redis, calls } = fakeRedis(() => new Promise(() => {}));
    const turn = manualSchedule();
    const holds = manualSchedule();
    const take = createTakeBatcher(redis, {
      oneBucketARun: false,
      schedule: turn.schedule,
      hold: (send) => {
        holds.schedule(send);
        return () => {};
      },
    });
    void take('a', '', '', []);
    turn.run();
    void take('b', '', '', []);
    turn.run();
    expect(calls).toHaveLength(1);
    // A Redis that does not answer: the hold runs out, and b goes without a's answer.
    holds.run();
    expect(calls.map((call) => call[1])).toEqual(['a', 'b']);
  });

  it("on a cluster, makes a run of each bucket's takes of a turn, sent at once whatever is out", async () => {
    const { redis, calls } = fakeRedis((keys) => new Promise(() => void keys));
    const turn = manualSchedule();
    const take = createTakeBatcher(redis, { oneBucketARun: true, schedule: turn.schedule });
    void take('a', '', '', ['1']);
    void take('b', '', '', ['2']);
    void take('a', '', '', ['1']);
    expect(calls).toHaveLength(0);
    turn.run();
    expect(calls).toEqual([
      ['2', 'a', 'a', '', '', '', '7', '', '7', '1'],
      ['1', 'b', '', '', '', '5', '2'],
    ]);
    // Runs out (never answered here) hold nothing back on a cluster.
    void take('b', '', '', ['2']);
    turn.run();
    expect(calls).toHaveLength(3);
  });
});
