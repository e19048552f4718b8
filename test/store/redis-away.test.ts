import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedEmulator } from '../../src/emulator.js';
import { connectRedisStore, type StoreStatus } from '../../src/store/redis/redis-store.js';
import { eventually, holdsWithin } from '../helpers/eventually.js';
import { HAS_REDIS, startRedis, type TestRedis } from '../helpers/redis-server.js';
import { collectText, exists, signIn, SLOW, startProxy } from './redis-store-fixtures.js';

describe.skipIf(!HAS_REDIS)('the Redis store while Redis is away', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it("hears the other instances' changes and events again once its connections are back", async () => {
    const proxy = await startProxy(Number(new URL(redis.url).port));
    const stores = await Promise.all(
      [`redis://127.0.0.1:${proxy.port}/0`, redis.url].map((url) =>
        connectRedisStore({ url, config: SLOW, watchIntervalMs: 20 }),
      ),
    );
    try {
      const [a, b] = stores.map((store) => createSharedEmulator({ config: SLOW, store }));
      const reader = a!.openEventStream()?.getReader();
      if (reader === undefined) throw new Error('no event stream');
      const read = collectText(reader);
      proxy.dropAll();
      let burst = 1;
      await eventually(async () => {
        const sent = ++burst;
        await b!.configure({ limits: { caller: { burst: sent } } });
        // Heard over pub/sub, through the proxy, a moment after b's own answer: given that
        // moment, where comparing at once lost the race on a busy machine, for every change.
        return holdsWithin(() => a!.config.limits.caller.burst === sent, 500);
      }, 10_000);
      await eventually(async () => {
        await b!.handle(exists('alice@example.com', 'after'));
        return read.text.includes('"caller_id":"after"');
      });
      await reader.cancel();
    } finally {
      await Promise.all(stores.map((store) => store.close()));
      await proxy.close();
    }
  });

  it('subscribes again when its subscription after a reconnect timed out while the connection stayed', async () => {
    const proxy = await startProxy(Number(new URL(redis.url).port));
    const stores = await Promise.all([
      connectRedisStore({ url: `redis://127.0.0.1:${proxy.port}/0`, config: SLOW, timeoutMs: 300 }),
      connectRedisStore({ url: redis.url, config: SLOW }),
    ]);
    try {
      const [a, b] = stores.map((store) => createSharedEmulator({ config: SLOW, store }));
      const reader = a!.openEventStream()?.getReader();
      if (reader === undefined) throw new Error('no event stream');
      const read = collectText(reader);
      // The connections drop; the SUBSCRIBE sent once they are back gets no answer, and times
      // out, while the connection itself stays: no reconnect is coming to try again.
      proxy.swallowSubscribe = true;
      proxy.dropAll();
      await eventually(() => proxy.swallowed > 0);
      await new Promise((resolve) => setTimeout(resolve, 400));
      proxy.swallowSubscribe = false;
      await eventually(async () => {
        await b!.handle(exists('alice@example.com', 'heard'));
        return read.text.includes('"caller_id":"heard"');
      });
      await reader.cancel();
    } finally {
      await Promise.all(stores.map((store) => store.close()));
      await proxy.close();
    }
  });

  it('ends no process when it closes while resubscribing after a reconnect', async () => {
    const proxy = await startProxy(Number(new URL(redis.url).port));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const store = await connectRedisStore({
        url: `redis://127.0.0.1:${proxy.port}/0`,
        config: SLOW,
        timeoutMs: 300,
      });
      // The connections drop; the subscriber's SUBSCRIBE, sent again once it is back, gets no
      // answer (nor does anything after it) before the store closes: ioredis rejects it.
      proxy.holdSubscribe = true;
      proxy.dropAll();
      await eventually(() => proxy.held > 0);
      await store.close();
      // A wait for something that must not happen (an unhandled rejection after the close):
      // there is no event to await, so it gives one 50 ms to show.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await proxy.close();
    }
  });

  it('says Redis is back after a stall even when no request comes to find out', async () => {
    const store = await connectRedisStore({
      url: redis.url,
      config: SLOW,
      timeoutMs: 200,
      watchIntervalMs: 50,
    });
    const pauser = new Redis(redis.url);
    try {
      const emulator = createSharedEmulator({ config: SLOW, store });
      await pauser.client('PAUSE', 600, 'ALL');
      expect((await emulator.handle(exists())).status).toBe(503);
      expect(store.healthy).toBe(false);
      // No request after this: only the store's own check can see that Redis answers again.
      await eventually(() => store.healthy);
      expect(emulator.storeState).toBe('up');
    } finally {
      pauser.disconnect();
      await store.close();
    }
  });

  it('answers 503 when closed and lets bucket decisions through when open, then recovers by itself', async () => {
    const statuses: StoreStatus[] = [];
    const closedStore = await connectRedisStore({
      url: redis.url,
      config: SLOW,
      timeoutMs: 200,
      onStatus: (status) => statuses.push(status),
    });
    const openStore = await connectRedisStore({
      url: redis.url,
      config: SLOW,
      onError: 'open',
      timeoutMs: 200,
    });
    const closed = createSharedEmulator({ config: SLOW, store: closedStore });
    const open = createSharedEmulator({ config: SLOW, store: openStore });
    try {
      expect((await closed.handle(exists())).status).toBe(200);
      await redis.kill();

      const refused = await closed.handle(exists());
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.body).toMatchObject({ type: 'urn:uas:problem:store-unavailable' });
      expect(statuses).toEqual([{ state: 'down', error: expect.any(String) }]);
      const metrics = await closed.metrics();
      expect(metrics).toContain('uas_store_up 0');
      expect(metrics).toContain('uas_store_errors_total 1');
      expect(metrics).not.toContain('uas_buckets{');
      expect(closed.requests({ status: 503 })).toHaveLength(1);

      const through = await open.handle(exists());
      expect(through.status).toBe(200);
      expect(through.headers['ratelimit']).toMatch(/r=19/);
      // A sign-in needs its code in Redis: no way to let it through.
      const started = await open.handle(signIn('start', { email: 'alice@example.com' }));
      expect(started.status).toBe(503);
      // Let through without Redis, its bucket took nothing: the 503 must not say it did.
      expect((started.body as { detail: string }).detail).toMatch(/; nothing was changed$/);
      // Its bucket decision went through too: two in all.
      expect(await open.metrics()).toContain('uas_store_failed_open_total 2');

      await redis.restart();
      await eventually(async () => (await closed.handle(exists())).status === 200);
      expect(statuses.at(-1)).toEqual({ state: 'up' });
      expect(await closed.metrics()).toContain('uas_store_up 1');
    } finally {
      await closedStore.close();
      await openStore.close();
    }
  });

  it('says in one line that Redis cannot be reached at the start', async () => {
    await expect(
      connectRedisStore({ url: 'redis://127.0.0.1:1/0', config: SLOW, timeoutMs: 200 }),
    ).rejects.toThrow(/^cannot reach Redis at redis:\/\/127\.0\.0\.1:1\/0: .*ECONNREFUSED/);
    await expect(
      connectRedisStore({ url: 'redis://:hunter2@127.0.0.1:1/0', config: SLOW, timeoutMs: 200 }),
    ).rejects.toThrow(/^cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1\/0: .*ECONNREFUSED/);
  });
});
