import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEMO_TOKEN } from '../demo-config.js';
import type { AnyEmulator } from '../core/emulator.js';
import type { EmulatorEvent } from '../core/records/records.js';
import { createManualClock } from '../core/time/clock.js';
import { TRANSPORTS, type Target } from '../../test/helpers/targets.js';
import { delayAnswer } from './delay-answer.js';

/** A stand-in emulator: a manual clock, and listeners a test can call. */
function fakeEmulator() {
  const clock = createManualClock(0);
  const listeners = new Set<(event: EmulatorEvent) => void>();
  const emulator = {
    clock,
    subscribe(listener: (event: EmulatorEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as AnyEmulator;
  const emit = (event: EmulatorEvent) => [...listeners].forEach((listener) => listener(event));
  return { clock, emulator, listeners, emit };
}

describe('delayAnswer', () => {
  it('ends every wait at a reset of the whole emulator, not at a reset of buckets', async () => {
    const { clock, emulator, listeners, emit } = fakeEmulator();
    const settled: number[] = [];
    const first = delayAnswer(emulator, 3_000).then(() => settled.push(1));
    const second = delayAnswer(emulator, 60_000).then(() => settled.push(2));
    expect(clock.sleepers).toBe(2);
    expect(listeners.size).toBe(1);

    emit({ type: 'reset', bucket: undefined, emulator: false });
    expect(clock.sleepers).toBe(2);

    emit({ type: 'reset', bucket: undefined, emulator: true });
    await Promise.all([first, second]);
    expect(settled).toEqual([1, 2]);
    expect(clock.sleepers).toBe(0);
    expect(listeners.size).toBe(0);
  });

  it('listens only while an answer waits, and a later wait still follows the clock', async () => {
    const { clock, emulator, listeners, emit } = fakeEmulator();
    await delayAnswer(emulator, 0);
    expect(listeners.size).toBe(0);
    const waited = delayAnswer(emulator, 1_000);
    emit({ type: 'reset', bucket: undefined, emulator: true });
    await waited;

    let done = false;
    const later = delayAnswer(emulator, 1_000).then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    clock.advance(1_000);
    await later;
    expect(done).toBe(true);
    expect(listeners.size).toBe(0);
  });
});

describe.each(TRANSPORTS)('a reset of the emulator, over $name', (transport) => {
  let target: Target | undefined;
  afterEach(async () => {
    await target?.close();
    target = undefined;
  });

  it('sends an answer waiting on a latency at once', async () => {
    target = await transport.start();
    const { baseUrl, emulator, clock } = target;
    emulator.failNext({ latencyMs: 3_000 });
    const pending = fetch(`${baseUrl}/v1/users/exists?email=alice%40example.com`, {
      headers: { authorization: `Bearer ${DEMO_TOKEN}` },
    });
    await vi.waitFor(() => expect(clock.sleepers).toBe(1));

    emulator.resetBuckets();
    expect(clock.sleepers).toBe(1);
    const reset = await fetch(`${baseUrl}/__uas/reset`, { method: 'POST' });
    expect(reset.status).toBe(200);

    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ exists: true, token_count: 2 });
    expect(clock.sleepers).toBe(0);
  });
});
