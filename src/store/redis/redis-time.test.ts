import { describe, expect, it } from 'vitest';
import { createRedisTime } from './redis-time.js';

/**
 * A Redis whose clock is `offset` ms ahead of the monotonic one, each TIME taking `trip` ms: a
 * measure is then off by half a trip, which the deadline takes off.
 */
function fakeRedis() {
  const state = { mono: 0, offset: 1_767_225_600_000, trip: 10 };
  const time = createRedisTime({
    monotonic: () => state.mono,
    async time() {
      // Redis reads its clock halfway through the round trip.
      state.mono += state.trip / 2;
      const ms = state.mono + state.offset;
      state.mono += state.trip / 2;
      return [String(Math.floor(ms / 1000)), String(Math.round((ms % 1000) * 1000))];
    },
  });
  return { state, time };
}

describe('createRedisTime', () => {
  it('gives no deadline before it has measured Redis', () => {
    expect(fakeRedis().time.deadline(1000)).toBe('');
  });

  it('puts the deadline before Redis time at the timeout, by the margin and at most a round trip more', async () => {
    const { state, time } = fakeRedis();
    await time.refresh();
    state.mono = 5_000;
    const deadline = Number(time.deadline(1000));
    const redisAtTimeout = 5_000 + 1000 + state.offset;
    expect(deadline).toBeLessThanOrEqual(redisAtTimeout - 100);
    expect(deadline).toBeGreaterThanOrEqual(redisAtTimeout - 100 - state.trip);
    // A short timeout keeps a quarter of it as its margin.
    expect(Number(time.deadline(200))).toBeLessThanOrEqual(5_000 + 200 - 50 + state.offset);
    expect(Number(time.deadline(200))).toBeGreaterThan(5_000 + 200 - 50 + state.offset - 11);
  });

  it('keeps the measure of the shortest round trip, and a later one when Redis was set', async () => {
    const { state, time } = fakeRedis();
    state.trip = 400;
    await time.refresh();
    expect(Number(time.deadline(1000)) - state.mono - state.offset).toBeCloseTo(900 - 200);
    state.trip = 2;
    await time.refresh();
    expect(Number(time.deadline(1000)) - state.mono - state.offset).toBeCloseTo(900 - 1);
    // A slow measure does not replace a quick one...
    state.trip = 300;
    await time.refresh();
    expect(Number(time.deadline(1000)) - state.mono - state.offset).toBeCloseTo(900 - 1);
    // ... unless Redis's clock was moved (an hour back, here): the old measures are all wrong.
    state.offset -= 3_600_000;
    await time.refresh();
    expect(Number(time.deadline(1000)) - state.mono - state.offset).toBeCloseTo(900 - 150);
  });

  it('forgets measures older than 30 s', async () => {
    const { state, time } = fakeRedis();
    state.trip = 2;
    await time.refresh();
    state.mono += 31_000;
    state.trip = 50;
    await time.refresh();
    expect(Number(time.deadline(1000)) - state.mono - state.offset).toBeCloseTo(900 - 25);
  });
});
