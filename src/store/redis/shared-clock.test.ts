import { describe, expect, it } from 'vitest';
import { createSharedClock } from './shared-clock.js';

const T0 = Date.UTC(2026, 0, 1);

/** A store that behaves as the Redis scripts do, and can lose its time. */
function memoryStore(initial?: string) {
  const state: { value: string | undefined; start?: string; published: number[] } = {
    value: initial,
    published: [],
  };
  const store = {
    async read(fallback: string) {
      state.value ??= fallback;
      return state.value;
    },
    async add(ms: number, fallback: string) {
      state.value = String(Number(state.value ?? fallback) + ms);
      return state.value;
    },
    async write(ms: string) {
      state.value = ms;
    },
    async start(fallback: string) {
      state.start ??= fallback;
      return state.start;
    },
  };
  const clock = (startMs: number) =>
    createSharedClock({
      store,
      startMs,
      publish: (ms) => state.published.push(ms),
      run: (command) => command(),
    });
  return { state, clock };
}

/** Lets the store's answers settle. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createSharedClock', () => {
  it('keeps the start of the first instance as where every reset goes', async () => {
    const store = memoryStore();
    const first = await store.clock(T0);
    first.advance(3_600_000);
    await settled();
    const later = await store.clock(T0 + 999);
    expect(later.now()).toBe(T0 + 3_600_000);
    expect(later.startMs).toBe(T0);
    expect(first.startMs).toBe(T0);
  });

  it('starts at the time of the store, or stores its own when there is none', async () => {
    expect((await memoryStore(String(T0 + 5)).clock(T0)).now()).toBe(T0 + 5);
    const empty = memoryStore();
    expect((await empty.clock(T0)).now()).toBe(T0);
    expect(empty.state.value).toBe(String(T0));
  });

  it('advances from its own time when the store has lost it', async () => {
    const { state, clock } = memoryStore();
    const shared = await clock(T0);
    shared.advance(1000);
    await settled();
    state.value = undefined;
    shared.advance(500);
    await settled();
    expect(shared.now()).toBe(T0 + 1500);
    expect(state.value).toBe(String(T0 + 1500));
    expect(state.published).toEqual([T0 + 1000, T0 + 1500]);
  });

  it('gives a store that lost its time its own when it syncs again, or takes the store time', async () => {
    const { state, clock } = memoryStore();
    const shared = await clock(T0);
    shared.set(T0 + 7);
    await settled();
    state.value = undefined;
    await shared.resync();
    expect(state.value).toBe(String(T0 + 7));
    state.value = String(T0 + 9);
    await shared.resync();
    expect(shared.now()).toBe(T0 + 9);
  });
});
