import { afterEach, describe, expect, it, vi } from 'vitest';
import { listen, type EmulatorHttpServer } from '../../src/adapters/http/http-server.js';
import type { Emulator } from '../../src/core/emulator.js';
import { DEMO_CONFIG, DEMO_MERCHANT, DEMO_TOKEN } from '../../src/demo-config.js';
import { createEmulator } from '../../src/emulator.js';
import { MAX_EVENT_READERS } from '../../src/core/admin/event-stream.js';
import { isPromise } from '../../src/core/async/maybe-promise.js';
import { createManualClock } from '../../src/core/time/clock.js';
import { createDevApiSource } from '../../src/tui/dev-api-source.js';
import type { FeedEvent } from '../../src/tui/tui-source.js';
import { initialState, reduce, type TuiState } from '../../src/tui/tui-state.js';

let running: EmulatorHttpServer | undefined;
let stop: (() => void) | undefined;

afterEach(async () => {
  stop?.();
  stop = undefined;
  await running?.close(100);
  running = undefined;
});

/** Buckets that cannot refill during a test: what is counted does not depend on its speed. */
const config = (journalSize?: number) => ({
  ...DEMO_CONFIG,
  limits: { client: { burst: 1000, rate: '1/h' }, caller: { burst: 3, rate: '1/h' } },
  ...(journalSize === undefined ? {} : { journal: { size: journalSize } }),
});

const exists = (emulator: Emulator, callerId: string) =>
  emulator.handle({
    method: 'GET',
    url: `/v1/users/exists?email=alice%40example.com&caller_id=${callerId}`,
    headers: { authorization: `Bearer ${DEMO_TOKEN}` },
  });

/** Follows a source as the screen does, keeping its events and the state they make. */
async function attach(emulator: Emulator, adminToken?: string) {
  running = await listen(emulator, 0, '127.0.0.1');
  const source = createDevApiSource({ url: running.url, adminToken, retryMs: 100 });
  const events: FeedEvent[] = [];
  stop = source.follow((event) => events.push(event));
  const screen = (): TuiState =>
    events.reduce(
      (state, event) => reduce(state, event.type === 'requests' ? { ...event, now: 0 } : event),
      initialState(),
    );
  const ids = () =>
    events.flatMap((event) =>
      event.type === 'seed' || event.type === 'requests'
        ? event.records.map((record) => record.id)
        : [],
    );
  return { events, screen, ids };
}

const wait = { timeout: 10_000, interval: 20 };

describe('createDevApiSource', () => {
  it('counts every request made while the screen attaches, each once', async () => {
    const emulator = createEmulator({ config: config() });
    exists(emulator, 'early');
    const seen = await attach(emulator);
    // Before, during and after the stream opens and the journal is read.
    await Promise.all(
      Array.from(
        { length: 10 },
        (_, index) =>
          new Promise<void>((resolve) =>
            setTimeout(() => {
              exists(emulator, 'bot');
              resolve();
            }, index * 15),
          ),
      ),
    );
    await vi.waitFor(() => expect(seen.ids()).toContain(11), wait);
    exists(emulator, 'late');
    await vi.waitFor(() => expect(seen.ids()).toContain(12), wait);
    expect(seen.ids()).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
    expect(seen.screen().totals).toEqual({ requests: 12, rejected: 7 });
    expect(emulator.getBucket('caller:demo:bot')).toMatchObject({ allowed: 3, rejected: 7 });
  });

  it('catches up after the event stream drops, with nothing missed or counted twice', async () => {
    const emulator = createEmulator({ config: config() });
    const seen = await attach(emulator);
    await vi.waitFor(() => expect(seen.events).toContainEqual({ type: 'connected' }), wait);
    exists(emulator, 'a');
    await vi.waitFor(() => expect(seen.ids()).toEqual([1]), wait);
    running!.server.closeAllConnections();
    exists(emulator, 'b');
    exists(emulator, 'c');
    await vi.waitFor(
      () => expect(seen.events.filter((event) => event.type === 'connected')).toHaveLength(2),
      wait,
    );
    exists(emulator, 'd');
    await vi.waitFor(() => expect(seen.ids()).toContain(4), wait);
    expect(seen.ids()).toEqual([1, 2, 3, 4]);
    expect(seen.events.some((event) => event.type === 'lost')).toBe(true);
    expect(seen.screen().totals.requests).toBe(4);
  });

  it('starts the totals again after a reset it did not see, and says what the journal let go', async () => {
    const emulator = createEmulator({ config: config(3) });
    for (let index = 0; index < 5; index++) exists(emulator, 'before');
    const seen = await attach(emulator);
    await vi.waitFor(() => expect(seen.screen().totals.requests).toBe(3), wait);
    expect(seen.screen().countedFrom).toBe(3);
    running!.server.closeAllConnections();
    emulator.reset();
    exists(emulator, 'after');
    exists(emulator, 'after');
    await vi.waitFor(
      () => expect(seen.events.filter((event) => event.type === 'seed')).toHaveLength(2),
      wait,
    );
    expect(seen.events).toContainEqual({ type: 'restart' });
    expect(seen.screen()).toMatchObject({
      totals: { requests: 2, rejected: 0 },
      countedFrom: undefined,
    });
  });

  it('says that the admin token is missing, or refused, instead of unreachable', async () => {
    const emulator = createEmulator({ config: config(), devApi: { adminToken: 's3cret' } });
    const without = await attach(emulator);
    await vi.waitFor(() => expect(without.events[0]).toBeDefined(), wait);
    expect(without.events[0]).toEqual({
      type: 'lost',
      problem: 'the dev API needs an admin token: pass --admin-token or set UAS_ADMIN_TOKEN',
      needsAdminToken: true,
    });
    stop?.();
    const url = running!.url;
    const wrong = createDevApiSource({ url, adminToken: 'nope', retryMs: 100 });
    const heard: FeedEvent[] = [];
    stop = wrong.follow((event) => heard.push(event));
    await vi.waitFor(() => expect(heard[0]).toBeDefined(), wait);
    expect(heard[0]).toMatchObject({ needsAdminToken: true, problem: /refused the admin token/ });
    stop();
    const right = createDevApiSource({ url, adminToken: 's3cret', retryMs: 100 });
    const fine: FeedEvent[] = [];
    stop = right.follow((event) => fine.push(event));
    await vi.waitFor(() => expect(fine.map((event) => event.type)).toEqual(['connected', 'seed']));
    await expect(right.listBuckets({ limit: 5 })).resolves.toEqual({ total: 0, buckets: [] });
  });

  it('says a reset or a bucket list refused for the admin token in the CLI’s words', async () => {
    const emulator = createEmulator({ config: config(), devApi: { adminToken: 's3cret' } });
    running = await listen(emulator, 0, '127.0.0.1');
    const without = createDevApiSource({ url: running.url });
    const needs = 'the dev API needs an admin token: pass --admin-token or set UAS_ADMIN_TOKEN';
    await expect(without.reset!(undefined)).rejects.toThrow(`DELETE /__uas/buckets: ${needs}`);
    await expect(without.reset!('caller:demo:bot')).rejects.toThrow(
      `DELETE /__uas/buckets/caller%3Ademo%3Abot: ${needs}`,
    );
    await expect(without.listBuckets({ limit: 5 })).rejects.toThrow(needs);
    const wrong = createDevApiSource({ url: running.url, adminToken: 'nope' });
    await expect(wrong.reset!(undefined)).rejects.toThrow(
      'DELETE /__uas/buckets: the dev API refused the admin token: check --admin-token or UAS_ADMIN_TOKEN',
    );
  });

  it('waits the Retry-After of a server whose event readers are all taken, and says what to do', async () => {
    const emulator = createEmulator({ config: config() });
    const streams = Array.from({ length: MAX_EVENT_READERS }, () => {
      const answer = emulator.handle({ method: 'GET', url: '/__uas/events', headers: {} });
      if (isPromise(answer) || answer.stream === undefined) throw new Error('no stream');
      return answer.stream;
    });
    const seen = await attach(emulator);
    await vi.waitFor(() => expect(seen.events[0]).toBeDefined(), wait);
    expect(seen.events[0]).toEqual({
      type: 'lost',
      problem: 'all event readers taken: close a dashboard tab or a uas top; next try in 5 s',
      readersFull: true,
    });
    expect(seen.screen()).toMatchObject({ connection: 'lost', readersFull: true });
    // Asked to come back in 5 s, it does not try again every 100 ms (its retryMs) meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(seen.events).toHaveLength(1);
    await streams[0]!.cancel();
    await vi.waitFor(() => expect(seen.events.map((event) => event.type)).toContain('connected'), {
      timeout: 15_000,
      interval: 50,
    });
    for (const stream of streams.slice(1)) await stream.cancel();
  }, 20_000);

  it('shows the latest code issued before the screen attached, as the stream would have', async () => {
    // A second apart: which came last is in the codes' dates, whatever order the list has.
    const clock = createManualClock(Date.parse('2026-01-01T10:00:00Z'));
    const emulator = createEmulator({ config: config(), clock });
    for (const email of ['bob@example.com', 'alice@example.com', 'bob@example.com']) {
      clock.advance(1000);
      await emulator.handle({
        method: 'POST',
        url: `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`,
        headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
    }
    const seen = await attach(emulator);
    await vi.waitFor(() => expect(seen.screen().code).toBeDefined(), wait);
    expect(seen.screen().code).toMatchObject({
      email: 'bob@example.com',
      code: emulator.latestCode('bob@example.com', DEMO_MERCHANT)?.code,
    });
    expect(seen.events.map((event) => event.type)).toEqual(['connected', 'seed', 'code']);
  });
});
