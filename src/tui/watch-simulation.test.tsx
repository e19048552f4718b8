import { describe, expect, it } from 'vitest';
import { createManualClock } from '../core/time/clock.js';
import { resolveScenario } from '../simulate/scenario.js';
import { simulate } from '../simulate/simulation.js';
import { FakeInput, FakeTerminal, fakeStreams } from '../../test/tui/fake-terminal.js';
import { watchSimulation, type WatchedSimulation } from './watch-simulation.js';

/** Shoppers sharing a bucket with a bot: a reset in the middle would change what they get. */
const scenario = resolveScenario({
  duration: '20s',
  seed: 3,
  shoppers: { count: 20, arrivalRate: '2/s', thinkTime: '1s-2s' },
  bot: { rate: '20/s' },
  modes: ['shared', 'per-caller'],
});

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A watched simulation on a fake terminal whose wall clock the test moves: nothing in it depends
 * on how fast this machine runs.
 */
function watch(speed: number) {
  const clock = createManualClock(0);
  const input = new FakeInput();
  let result: WatchedSimulation | undefined;
  let done = false;
  const watching = watchSimulation(scenario, speed, fakeStreams(new FakeTerminal(), input), {
    clock,
  }).then((watched) => {
    result = watched;
    done = true;
  });
  return {
    clock,
    input,
    done: () => done,
    /** What the run gave, once it has ended (and it must have). */
    async ended(): Promise<WatchedSimulation> {
      expect(done).toBe(true);
      await watching;
      return result as WatchedSimulation;
    },
    /** Moves the wall clock on `ms`, a millisecond and a turn of the event loop at a time. */
    async play(ms: number) {
      for (let step = 0; step < ms && !done; step++) {
        clock.advance(1);
        await turn();
      }
    },
  };
}

describe('watchSimulation', () => {
  it('plays 40 simulated seconds at 30x in 1.33 s of wall time, to the report of a run without screen', async () => {
    // Steps of 100 simulated ms are 3.33 ms apart: each timer fires late (at the next whole
    // millisecond of this clock), and the playback makes up for it instead of adding it up.
    const run = watch(30);
    await run.play(1320);
    expect(run.done()).toBe(false);
    await run.play(20);
    const { report, playback } = await run.ended();
    expect(playback).toMatchObject({ simulatedMs: 40_000, speed: 30, behind: false });
    expect(playback.wallMs).toBeLessThanOrEqual(1335);
    expect(report).toEqual(await simulate(scenario));
  });
});
