import { describe, expect, it, vi } from 'vitest';
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
    /** What the run resolved with: undefined when the user quit. */
    result: () => result,
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

/** Waits until the screen reads keys (it is drawn at the run's first step). */
const keysReady = (input: FakeInput) =>
  vi.waitFor(() => expect(input.listening).toBe(true), { timeout: 5000, interval: 5 });

/** A run at 10x paused with p after `ms` of wall time. */
async function pausedAfter(ms: number) {
  const run = watch(10);
  await keysReady(run.input);
  await run.play(ms);
  run.input.type('p');
  return run;
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

  it('ignores r and R, which would change the results', async () => {
    const run = watch(10);
    await keysReady(run.input);
    await run.play(1000);
    // The shared bucket is empty by now: a reset would hand the shoppers 20 tokens.
    run.input.type('R');
    run.input.type('r');
    await run.play(1500);
    run.input.type('R');
    await run.play(5000);
    expect((await run.ended()).report).toEqual(await simulate(scenario));
  });

  it('pauses the simulation itself on p: no request, no simulated time, until p again', async () => {
    const run = await pausedAfter(1000);
    // A minute of wall time: the run stays where it was, waiting on no timer.
    await run.play(60_000);
    expect(run.done()).toBe(false);
    expect(run.clock.sleepers).toBe(0);
    run.input.type('p');
    // It goes on from where it stopped: 3 s of wall time are left of the 4 s, not none.
    await run.play(2990);
    expect(run.done()).toBe(false);
    await run.play(20);
    const { report, playback } = await run.ended();
    expect(playback.pausedMs).toBeGreaterThanOrEqual(60_000);
    expect(report).toEqual(await simulate(scenario));
  });

  it('quits on q while paused, without waiting for a p', async () => {
    const run = await pausedAfter(1000);
    run.input.type('q');
    await run.play(10);
    expect(run.done()).toBe(true);
    expect(run.result()).toBeUndefined();
  });
});
