import { describe, expect, it } from 'vitest';
import { createManualClock, type ManualClock } from '../core/time/clock.js';
import { createPlayback, type Playback } from './playback.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Waits for `promise` as a real event loop would: while it is pending the wall clock moves on a
 * whole millisecond at a time, so a timer due at 3.33 ms fires at 4 ms, late, as real ones do.
 */
async function settle(clock: ManualClock, promise: Promise<void>): Promise<void> {
  let done = false;
  void promise.then(() => (done = true));
  await turn();
  while (!done) {
    clock.advance(1);
    await turn();
  }
}

/** Plays `seconds` of simulated time in steps of 100 ms, each step costing `workMs` of work. */
async function play(playback: Playback, clock: ManualClock, seconds: number, workMs = 0) {
  for (let simulated = 0; simulated <= seconds * 1000; simulated += 100) {
    await settle(clock, playback.at(simulated));
    clock.advance(workMs);
  }
}

describe('createPlayback', () => {
  it('plays 80 simulated seconds at 30x in 80 / 30 s of wall time, late timers included', async () => {
    const clock = createManualClock(0);
    const playback = createPlayback({ speed: 30, clock });
    await play(playback, clock, 80);
    // Each step waits for its due time from the start: a timer that fires late is made up for.
    expect(clock.now()).toBeGreaterThanOrEqual(2667);
    expect(clock.now()).toBeLessThanOrEqual(2668);
    expect(playback.summary()).toMatchObject({ simulatedMs: 80_000, speed: 30, behind: false });
  });

  it('makes up for the work of each step while there is room for it', async () => {
    const clock = createManualClock(0);
    const playback = createPlayback({ speed: 30, clock });
    // 2 ms of work in every step of 3.33 ms.
    await play(playback, clock, 80, 2);
    expect(clock.now()).toBeLessThanOrEqual(2670);
    expect(playback.summary().behind).toBe(false);
  });

  it('says it fell behind when the machine cannot keep up, rather than claim the speed', async () => {
    const clock = createManualClock(0);
    const playback = createPlayback({ speed: 30, clock });
    // 5 ms of work in every step of 3.33 ms: 801 steps take 4 s, not 2.67 s.
    await play(playback, clock, 80, 5);
    const summary = playback.summary();
    expect(summary.wallMs).toBe(4005);
    expect(summary.behind).toBe(true);
  });

  it('holds simulated time while paused, and goes on from where it stopped', async () => {
    const clock = createManualClock(0);
    const playback = createPlayback({ speed: 10, clock });
    await play(playback, clock, 1);
    expect(clock.now()).toBe(100);
    playback.pause();
    let reached = false;
    const next = playback.at(1100).then(() => {
      reached = true;
    });
    // A minute of wall time passes: the step does not come, and no timer waits for it.
    for (let second = 0; second < 60; second++) {
      clock.advance(1000);
      await turn();
    }
    expect(reached).toBe(false);
    expect(clock.sleepers).toBe(0);
    expect(playback.paused).toBe(true);
    playback.resume();
    // The minute paused is not made up for: the next 100 ms of simulated time take 10 ms.
    await settle(clock, next);
    expect(clock.now()).toBe(60_110);
    expect(playback.summary()).toMatchObject({ simulatedMs: 1100, wallMs: 110, pausedMs: 60_000 });
  });
});
