import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SharedEmulator } from '../../src/core/emulator.js';
import type { EmulatorRequest } from '../../src/core/service/exchange.js';
import { createSeededRandom } from '../../src/core/time/random.js';
import { DEMO_CONFIG, DEMO_MERCHANT, DEMO_TOKEN } from '../../src/demo-config.js';
import { createSharedEmulator } from '../../src/emulator.js';
import {
  connectRedisStore,
  type RedisStore,
  type RedisStoreOptions,
  type StoreStatus,
} from '../../src/store/redis/redis-store.js';
import { eventually } from '../helpers/eventually.js';
import { HAS_REDIS, startRedis, useTestRedis, type TestRedis } from '../helpers/redis-server.js';

const T0 = Date.UTC(2026, 0, 1);
/** Buckets that never refill within a test. */
const SLOW = {
  ...DEMO_CONFIG,
  limits: { client: { burst: 20, rate: '1/h' }, caller: { burst: 5, rate: '1/h' } },
};

const exists = (email = 'alice@example.com', callerId?: string): EmulatorRequest => ({
  method: 'GET',
  url: `/v1/users/exists?email=${encodeURIComponent(email)}${callerId === undefined ? '' : `&caller_id=${callerId}`}`,
  headers: { host: 'uas.test', authorization: `Bearer ${DEMO_TOKEN}` },
});

const signIn = (action: 'start' | 'verify', body: Record<string, unknown>): EmulatorRequest => ({
  method: 'POST',
  url: `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/${action}`,
  headers: {
    host: 'uas.test',
    authorization: `Bearer ${DEMO_TOKEN}`,
    'content-type': 'application/json',
  },
  body: JSON.stringify(body),
});

describe.skipIf(!HAS_REDIS)('the Redis store, with a real redis-server', () => {
  let redis: TestRedis;
  let inspect: Redis;
  const opened: RedisStore[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    inspect = new Redis(redis.url, { lazyConnect: true });
    // Tests stop Redis on purpose: this client reconnects when it is back, without printing.
    inspect.on('error', () => {});
    await inspect.connect();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    await inspect.flushall();
  });
  afterAll(async () => {
    inspect.disconnect();
    await redis?.stop();
  });

  async function store(options: Partial<RedisStoreOptions> = {}): Promise<RedisStore> {
    const connected = await connectRedisStore({
      url: redis.url,
      config: SLOW,
      watchIntervalMs: 20,
      // Room for a loaded machine: a command cut off at 1 s would be a 503, not what is tested.
      timeoutMs: 5_000,
      ...options,
    });
    opened.push(connected);
    return connected;
  }

  async function instance(options: Partial<RedisStoreOptions> = {}): Promise<SharedEmulator> {
    const shared = await store(options);
    return createSharedEmulator({
      config: options.config ?? SLOW,
      store: shared,
      clock: shared.clock,
      random: createSeededRandom(opened.length),
    });
  }

  it('lets exactly the burst through four instances hit at once with ten times as many requests', async () => {
    const instances = await Promise.all([instance(), instance(), instance(), instance()]);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        (instances[index % 4] as SharedEmulator).handle(exists()),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(20);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(180);
    const [bucket] = (await (instances[3] as SharedEmulator).listBuckets()).buckets;
    expect(bucket).toMatchObject({ key: 'client:demo', allowed: 20, rejected: 180, remaining: 0 });
  });

  it('verifies a code on another instance, once, and counts wrong tries across instances', async () => {
    const [a, b, c] = await Promise.all([instance(), instance(), instance()]);
    // No caller_id: the client bucket (20 tokens) has room for every try below.
    const alice = { email: 'alice@example.com' };
    expect((await a.handle(signIn('start', alice))).status).toBe(200);
    const code = (await b.latestCode('alice@example.com'))?.code as string;
    expect(code).toMatch(/^\d{6}$/);
    // Five instances' worth of concurrent right answers: one sign-in, the rest told it is used.
    const tries = await Promise.all(
      [a, b, c, a, b].map((emulator) =>
        emulator.handle(signIn('verify', { ...alice, verification_code: code })),
      ),
    );
    expect(tries.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409]);

    // A new code; wrong tries at once on three instances spend exactly the attempts allowed.
    expect((await b.handle(signIn('start', alice))).status).toBe(200);
    const fresh = (await a.latestCode('alice@example.com'))?.code as string;
    const miss = `${fresh.slice(0, 5)}${(Number(fresh[5]) + 1) % 10}`;
    const wrong = await Promise.all(
      Array.from({ length: 9 }, (_, index) =>
        ([a, b, c][index % 3] as SharedEmulator).handle(
          signIn('verify', { ...alice, verification_code: miss }),
        ),
      ),
    );
    const statuses = wrong.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 422)).toHaveLength(5);
    expect(statuses.filter((status) => status === 403)).toHaveLength(4);
    expect((await c.latestCode('alice@example.com'))?.attempts_left).toBe(0);
  });

  it('keeps every key under a TTL and a hash tag of its own', async () => {
    const emulator = await instance();
    await emulator.handle(exists('alice@example.com', 'ip-1'));
    await emulator.handle(signIn('start', { email: 'alice@example.com' }));
    const keys = await inspect.keys('uas:*');
    const data = keys.filter((key) => key.startsWith('uas:bucket:') || key.startsWith('uas:code:'));
    expect(data.sort()).toEqual([
      `uas:bucket:{caller:demo:ip-1}`,
      `uas:bucket:{client:demo}`,
      `uas:code:{${DEMO_MERCHANT} alice@example.com}`,
    ]);
    // One token gone at 1/h: an hour to be full again, and no longer.
    for (const key of data.filter((key) => key.startsWith('uas:bucket:'))) {
      const ttl = await inspect.pttl(key);
      expect(ttl).toBeGreaterThan(3_590_000);
      // PTTL counts from Redis's millisecond clock, which may tick between the write and the read
      // in either direction by one (the script's time has microseconds).
      expect(ttl).toBeLessThanOrEqual(3_600_001);
    }
    // A code lives its TTL (10 minutes) and a day more, to answer "expired" to a late try.
    const codeTtl = await inspect.pttl(data.find((key) => key.startsWith('uas:code:')) as string);
    expect(codeTtl).toBeGreaterThan(86_400_000 + 590_000);
    expect(codeTtl).toBeLessThanOrEqual(86_400_000 + 600_000);
  });

  it('reloads its scripts when Redis has forgotten them (NOSCRIPT)', async () => {
    const emulator = await instance();
    expect((await emulator.handle(exists())).status).toBe(200);
    await inspect.script('FLUSH');
    expect((await emulator.handle(exists())).status).toBe(200);
    expect((await emulator.handle(signIn('start', { email: 'alice@example.com' }))).status).toBe(
      200,
    );
    expect((await emulator.getBucket('client:demo'))?.allowed).toBe(3);
  });

  it('shares live config changes, added users, resets and a manual clock with the other instances', async () => {
    const a = await instance({ manualClock: { startMs: T0 } });
    const b = await instance({ manualClock: { startMs: T0 + 999 } });
    // The clock the first instance made is the one the second joins.
    expect(b.clock.now()).toBe(T0);

    await a.configure({ limits: { caller: { burst: 2 } } });
    await eventually(() => b.config.limits.caller.burst === 2);
    await a.addUsers([{ email: 'new@example.com' }]);
    await eventually(async () => (await b.handle(exists('new@example.com'))).body !== undefined);
    expect((await b.handle(exists('new@example.com'))).body).toMatchObject({ exists: true });

    // Two caller tokens (the new burst), spent on two instances; the manual clock refills them.
    expect((await a.handle(exists('alice@example.com', 'x'))).status).toBe(200);
    expect((await b.handle(exists('alice@example.com', 'x'))).status).toBe(200);
    expect((await a.handle(exists('alice@example.com', 'x'))).status).toBe(429);
    if (!('advance' in a.clock)) throw new Error('expected a manual clock');
    (a.clock as { advance(ms: number): void }).advance(3_600_000);
    await eventually(() => b.clock.now() === T0 + 3_600_000);
    expect((await b.handle(exists('alice@example.com', 'x'))).status).toBe(200);

    await a.reset();
    await eventually(() => b.config.limits.caller.burst === 5 && b.journal().length === 0);
    expect(await b.listBuckets()).toEqual({ total: 0, buckets: [] });
    expect((await b.handle(exists('new@example.com'))).body).toMatchObject({ exists: false });
    expect(b.clock.now()).toBe(T0);
  });

  it('lets an instance that starts later join the live state; one with another config only once the others are gone', async () => {
    const a = await instance();
    await a.configure({ behavior: { headers: 'x-ratelimit' } });
    await a.addUsers([{ email: 'late@example.com' }]);
    const joiner = await store();
    expect(joiner.joined).toBe(true);
    const b = createSharedEmulator({ config: SLOW, store: joiner });
    expect(b.config.behavior.headers).toBe('x-ratelimit');
    expect((await b.handle(exists('late@example.com'))).body).toMatchObject({ exists: true });

    // Another config beside running instances would leave each with its own limits: refused.
    const other = {
      ...SLOW,
      limits: { client: { burst: 7, rate: '1/h' }, caller: { burst: 3, rate: '1/h' } },
    };
    await expect(store({ config: other })).rejects.toThrow(
      /^prefix "uas" at redis:\/\/127\.0\.0\.1:\d+\/0 is used by 2 instances started with another config .*--store-prefix\)$/,
    );
    // So is the same config on another clock.
    await expect(store({ manualClock: { startMs: T0 } })).rejects.toThrow(/another config/);
    expect(await inspect.hget('uas:meta', 'live')).toContain('x-ratelimit');

    // Once they are gone, it starts the prefix over with its own.
    await Promise.all(opened.splice(0).map((running) => running.close()));
    const newcomer = await store({ config: other });
    expect(newcomer.joined).toBe(false);
    const c = createSharedEmulator({ config: other, store: newcomer });
    expect(c.config.limits.client.burst).toBe(7);
    expect(await inspect.hget('uas:meta', 'live')).toBeNull();
  });

  it('keeps a live change in Redis before it applies it: with Redis away, refused and applied nowhere', async () => {
    const statuses: StoreStatus[] = [];
    const a = await instance({ onStatus: (status) => statuses.push(status) });
    const b = await instance();
    await redis.kill();
    await expect(a.configure({ limits: { caller: { burst: 4 } } })).rejects.toThrow(/^Redis at /);
    await expect(a.addUsers([{ email: 'lost@example.com' }])).rejects.toThrow(/^Redis at /);
    await redis.restart();
    expect(a.config.limits.caller.burst).toBe(5);
    expect(b.config.limits.caller.burst).toBe(5);
    // Back (once reconnected): the user was not added, and a change reaches both.
    await eventually(async () => (await a.handle(exists('lost@example.com'))).status === 200);
    expect((await a.handle(exists('lost@example.com'))).body).toMatchObject({ exists: false });
    await eventually(async () => {
      try {
        await a.configure({ limits: { caller: { burst: 4 } } });
        return true;
      } catch {
        return false;
      }
    });
    await eventually(() => b.config.limits.caller.burst === 4);
    expect(a.config.limits.caller.burst).toBe(4);
  });

  it("hands another instance's requests to this one's event readers", async () => {
    const a = await instance();
    const b = await instance();
    const reader = b.openEventStream()?.getReader();
    if (reader === undefined) throw new Error('no event stream');
    const decoder = new TextDecoder();
    let text = '';
    // Readers are noticed within the watch interval (20 ms here); send until one request shows.
    const seen = (async () => {
      while (!text.includes('"caller_id":"from-a"')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
    })();
    await eventually(async () => {
      await a.handle(exists('alice@example.com', 'from-a'));
      return text.includes('"caller_id":"from-a"');
    });
    await reader.cancel();
    await seen;
    expect(text).toMatch(/event: request/);
    // Marked as another instance's: its id counts in that instance's journal.
    expect(text).toMatch(/"caller_id":"from-a".*"from":"[\w-]+"/);
  });

  it('ignores what it cannot use on its channel, and says so for a change that does not fit', async () => {
    const warnings: string[] = [];
    const a = await instance({ onWarning: (message) => warnings.push(message) });
    for (const message of [
      'not json',
      '[]',
      JSON.stringify({
        from: 'x',
        change: { type: 'config', live: { limits: { caller: { burst: -1 } } } },
      }),
      JSON.stringify({ from: 'x', change: { type: 'users', users: [{ email: 'no' }] } }),
      JSON.stringify({ from: 'x', change: { type: 'mystery' } }),
      JSON.stringify({ from: 'x', clock: 'soon' }),
    ])
      await inspect.publish('uas:changes', message);
    await eventually(() => warnings.length >= 1);
    expect(warnings[0]).toMatch(/a config change from another instance was not applied/);
    expect(a.config.limits.caller.burst).toBe(5);
    expect((await a.handle(exists())).status).toBe(200);
  });

  it('moves a manual clock through the dev API only once Redis has kept the move', async () => {
    const a = await instance({ manualClock: { startMs: T0 } });
    const b = await instance({ manualClock: { startMs: T0 } });
    const move = (body: unknown): EmulatorRequest => ({
      method: 'POST',
      url: '/__uas/clock',
      headers: { host: '127.0.0.1', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect((await a.handle(move({ advance_ms: 5_000 }))).status).toBe(200);
    expect(a.clock.now()).toBe(T0 + 5_000);
    await eventually(() => b.clock.now() === T0 + 5_000);
    await redis.kill();
    const refused = await a.handle(move({ set: T0 + 86_400_000 }));
    expect(refused.status).toBe(503);
    expect((await a.handle(move({ advance_ms: 1_000 }))).status).toBe(503);
    await redis.restart();
    expect(a.clock.now()).toBe(T0 + 5_000);
    expect(b.clock.now()).toBe(T0 + 5_000);
  });

  it('takes every instance back to the clock the first one started, on a reset, whenever it joined', async () => {
    const a = await instance({ manualClock: { startMs: T0 } });
    const clock = (body: unknown): EmulatorRequest => ({
      method: 'POST',
      url: '/__uas/clock',
      headers: { host: '127.0.0.1', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect((await a.handle(clock({ advance_ms: 3_600_000 }))).status).toBe(200);
    const b = await instance({ manualClock: { startMs: T0 + 999 } });
    expect(b.clock.now()).toBe(T0 + 3_600_000);
    await a.reset();
    await eventually(() => a.clock.now() === T0 && b.clock.now() === T0);
    // A bucket is the same on both: 5 for the caller, not 5 on each clock.
    const allowed = [];
    for (const emulator of [a, b, a, b, a, b, a, b])
      allowed.push((await emulator.handle(exists('alice@example.com', 'one'))).status);
    expect(allowed.filter((status) => status === 200)).toHaveLength(5);
    expect(a.clock.now()).toBe(T0);
    expect(b.clock.now()).toBe(T0);
  });

  it("gives event readers each other instance's event once, and none it could not have sent", async () => {
    const a = await instance();
    const b = await instance();
    const reader = b.openEventStream()?.getReader();
    if (reader === undefined) throw new Error('no event stream');
    const read = collectText(reader);
    // The reader is noticed within the watch interval (20 ms); a request of a's shows when it is.
    await eventually(async () => {
      await a.handle(exists('alice@example.com', 'warm-up'));
      return read.text.includes('"caller_id":"warm-up"');
    });
    const record = { id: 1, at: T0, method: 'GET', path: '/v1/users/exists', fingerprint: 'f' };
    const event = (value: unknown) => JSON.stringify({ from: 'x', event: value });
    for (const junk of [
      event({ type: 'request', request: 'zz' }),
      event({ type: 'request', request: { ...record, status: 200, outcome: 'allowed', at: 9e15 } }),
      event({ type: 'request\ndata: injected', request: record }),
      event({ type: 'code', code: { email: 'a@b.c', code: '1', issued_at: 'soon' } }),
      event({ type: 'reset', bucket: 7, emulator: true }),
      event({ type: 'mystery' }),
    ])
      await inspect.publish('uas:events', junk);
    await a.configure({ limits: { caller: { burst: 4 } } });
    await a.reset();
    await a.handle(exists('alice@example.com', 'last'));
    await eventually(() => read.text.includes('"caller_id":"last"'));
    await reader.cancel();
    expect(read.text).not.toMatch(/injected|mystery|"zz"|soon/);
    expect(read.text.match(/^event: config$/gm)).toHaveLength(1);
    expect(read.text.match(/^event: reset$/gm)).toHaveLength(1);
  });
});

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
        await b!.configure({ limits: { caller: { burst: ++burst } } });
        return a!.config.limits.caller.burst === burst;
      });
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
      expect((await open.handle(signIn('start', { email: 'alice@example.com' }))).status).toBe(503);
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

/**
 * A redis-server of a describe block's own, a connection to look into it, and the stores its
 * tests open: closed, and Redis flushed, after each test.
 */
function redisOfTheseTests() {
  const redis = useTestRedis();
  const tests = {
    get server(): TestRedis {
      return redis.server;
    },
    get inspect(): Redis {
      return redis.inspect;
    },
    async store(options: Partial<RedisStoreOptions> = {}): Promise<RedisStore> {
      const connected = await connectRedisStore({
        url: tests.server.url,
        config: SLOW,
        ...options,
      });
      redis.opened.push(connected);
      return connected;
    },
    async instance(options: Partial<RedisStoreOptions> = {}): Promise<SharedEmulator> {
      const shared = await tests.store(options);
      return createSharedEmulator({ config: SLOW, store: shared, clock: shared.clock });
    },
  };
  return tests;
}

describe.skipIf(!HAS_REDIS)('the Redis store with keys that something else wrote', () => {
  const tests = redisOfTheseTests();
  const JUNK: Array<[string, (key: string) => Promise<unknown>]> = [
    ['tokens that are not a number', (key) => tests.inspect.hset(key, { t: 'abc', u: '1' })],
    ['tokens that are nan', (key) => tests.inspect.hset(key, { t: 'nan', u: '1' })],
    ['tokens that are inf', (key) => tests.inspect.hset(key, { t: 'inf', u: '1' })],
    ['empty tokens', (key) => tests.inspect.hset(key, { t: '', u: '1' })],
    ['an updated-at of -inf', (key) => tests.inspect.hset(key, { t: '1', u: '-inf' })],
    [
      'a counter that is not a number',
      (key) => tests.inspect.hset(key, { t: '1', u: '1', a: 'x' }),
    ],
    ['a counter that is not whole', (key) => tests.inspect.hset(key, { t: '1', u: '1', r: '1.5' })],
    ['a string key', (key) => tests.inspect.set(key, 'junk')],
    ['a list key', (key) => tests.inspect.rpush(key, 'junk')],
  ];

  it.each(JUNK)(
    'takes from a bucket holding %s as from a full one, replaces it, and keeps Redis up',
    async (_, write) => {
      const statuses: StoreStatus[] = [];
      const emulator = await tests.instance({ onStatus: (status) => statuses.push(status) });
      const key = 'uas:bucket:{caller:demo:junk}';
      await write(key);
      const answer = await emulator.handle(exists('alice@example.com', 'junk'));
      expect(answer.status).toBe(200);
      expect(answer.headers['ratelimit']).toMatch(/r=4/);
      expect(await tests.inspect.type(key)).toBe('hash');
      const after = await tests.inspect.hgetall(key);
      expect(Object.keys(after).sort()).toEqual(['a', 't', 'u']);
      expect(after).toMatchObject({ t: '4', a: '1' });
      expect(statuses).toEqual([]);
    },
  );

  it('limits a bucket whose key held junk when it fails open', async () => {
    const emulator = await tests.instance({ onError: 'open' });
    await tests.inspect.set('uas:bucket:{caller:demo:junk}', 'junk');
    const statuses: number[] = [];
    for (let index = 0; index < 7; index++)
      statuses.push((await emulator.handle(exists('alice@example.com', 'junk'))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(await emulator.metrics()).toContain('uas_store_failed_open_total 0');
  });

  it('counts a code whose key holds junk as none, and issues a new one over it', async () => {
    const emulator = await tests.instance();
    const key = `uas:code:{${DEMO_MERCHANT} alice@example.com}`;
    const alice = { email: 'alice@example.com', verification_code: '123456' };
    for (const write of [
      () => tests.inspect.rpush(key, 'junk'),
      () =>
        tests.inspect.hset(key, {
          ...{ m: DEMO_MERCHANT, e: 'alice@example.com', c: '123456', i: 'nan', x: '1e99' },
          ...{ a: '3', used: '0' },
        }),
      () =>
        tests.inspect.hset(key, {
          ...{ m: DEMO_MERCHANT, e: 'alice@example.com', c: '123456', i: '1', x: '1e99' },
          ...{ a: 'three', used: '0' },
        }),
    ]) {
      await tests.inspect.del(key);
      await write();
      const tried = await emulator.handle(signIn('verify', alice));
      expect(tried.body).toMatchObject({ type: 'urn:uas:problem:code-not-found' });
      expect(await emulator.latestCode('alice@example.com', DEMO_MERCHANT)).toBeUndefined();
    }
    expect((await emulator.handle(signIn('start', { email: alice.email }))).status).toBe(200);
    const code = (await emulator.latestCode(alice.email, DEMO_MERCHANT))?.code as string;
    const verified = await emulator.handle(signIn('verify', { ...alice, verification_code: code }));
    expect(verified.status).toBe(200);
  });

  it('keeps Redis up when it refuses a command, and says why in words', async () => {
    const statuses: StoreStatus[] = [];
    const store = await tests.store({ onStatus: (status) => statuses.push(status) });
    const emulator = createSharedEmulator({ config: SLOW, store });
    await tests.inspect.config('SET', 'maxmemory', '1');
    try {
      const refused = await emulator.handle(exists());
      expect(refused.status).toBe(503);
      expect((refused.body as { detail: string }).detail).toMatch(
        /^the shared store did not answer: Redis at redis:\/\/127\.0\.0\.1:\d+\/0 answered with an error: .*OOM command not allowed.*; nothing was changed$/,
      );
      expect(statuses).toEqual([]);
      expect(store.healthy).toBe(true);
    } finally {
      await tests.inspect.config('SET', 'maxmemory', '0');
    }
    expect((await emulator.handle(exists())).status).toBe(200);
  });

  it('says in words that Redis is not connected, without ioredis internals', async () => {
    const statuses: StoreStatus[] = [];
    const emulator = await tests.instance({
      timeoutMs: 200,
      onStatus: (status) => statuses.push(status),
    });
    expect((await emulator.handle(exists())).status).toBe(200);
    await tests.server.kill();
    try {
      await eventually(() => statuses.length > 0);
      const refused = await emulator.handle(exists());
      expect(refused.status).toBe(503);
      const { detail } = refused.body as { detail: string };
      expect(detail).toMatch(
        /^the shared store did not answer: Redis at redis:\/\/127\.0\.0\.1:\d+\/0 is not connected: .+; nothing was changed$/,
      );
      expect(`${detail} ${JSON.stringify(statuses)}`).not.toMatch(/enableOfflineQueue|Stream/);
    } finally {
      await tests.server.restart();
    }
    await eventually(async () => (await emulator.handle(exists())).status === 200);
  });
});

describe.skipIf(!HAS_REDIS)('listings of the Redis store', () => {
  const tests = redisOfTheseTests();

  it('lists and counts buckets and codes, skipping keys of another type and hashes holding junk', async () => {
    const statuses: StoreStatus[] = [];
    const emulator = await tests.instance({ onStatus: (status) => statuses.push(status) });
    expect((await emulator.handle(exists('alice@example.com', 'ok'))).status).toBe(200);
    expect((await emulator.handle(signIn('start', { email: 'alice@example.com' }))).status).toBe(
      200,
    );
    const junk: Array<Promise<unknown>> = [
      tests.inspect.set('uas:bucket:{caller:demo:string}', 'junk'),
      tests.inspect.rpush('uas:bucket:{caller:demo:list}', 'junk'),
      tests.inspect.hset('uas:bucket:{caller:demo:nan}', { t: 'nan', u: '1' }),
      tests.inspect.hset('uas:bucket:{caller:demo:inf}', { t: '1', u: 'inf' }),
      tests.inspect.hset('uas:bucket:{caller:demo:count}', { t: '1', u: '1', a: 'notanumber' }),
      tests.inspect.set(`uas:code:{${DEMO_MERCHANT} bob@example.com}`, 'junk'),
      tests.inspect.hset(`uas:code:{${DEMO_MERCHANT} eve@example.com}`, { m: 'x', i: 'abc' }),
    ];
    await Promise.all(junk);
    const page = await emulator.listBuckets();
    expect(page.total).toBe(2);
    expect(page.buckets.map((bucket) => bucket.key).sort()).toEqual([
      'caller:demo:ok',
      'client:demo',
    ]);
    expect(await emulator.getBucket('caller:demo:string')).toBeUndefined();
    expect(await emulator.getBucket('caller:demo:nan')).toBeUndefined();
    const metrics = await emulator.metrics();
    expect(metrics).toContain('uas_buckets{level="client"} 1');
    expect(metrics).toContain('uas_buckets{level="caller"} 1');
    expect((await emulator.listCodes()).map((code) => code.email)).toEqual(['alice@example.com']);
    expect(await emulator.latestCode('bob@example.com')).toBeUndefined();
    expect(await emulator.latestCode('bob@example.com', DEMO_MERCHANT)).toBeUndefined();
    expect(statuses).toEqual([]);
  });

  it('reads at most 10,000 keys for a listing or a count', async () => {
    const emulator = await tests.instance();
    for (let start = 0; start < 12_000; start += 2_000) {
      const pipeline = tests.inspect.pipeline();
      for (let index = start; index < start + 2_000; index++)
        pipeline.hset(`uas:bucket:{caller:demo:ip-${index}}`, { t: '1', u: String(T0) });
      await pipeline.exec();
    }
    const page = await emulator.listBuckets({ limit: 10 });
    expect(page.total).toBe(10_000);
    expect(page.buckets).toHaveLength(10);
    expect(await emulator.metrics()).toContain('uas_buckets{level="caller"} 10000');
    // A reset is not a listing: every bucket goes.
    await emulator.resetBuckets();
    expect(await tests.inspect.keys('uas:bucket:*')).toEqual([]);
  });

  it('leaves Redis up when a listing gets no answer in time', async () => {
    const statuses: StoreStatus[] = [];
    const emulator = await tests.instance({
      timeoutMs: 200,
      onStatus: (status) => statuses.push(status),
    });
    expect((await emulator.handle(exists())).status).toBe(200);
    await tests.inspect.call('CLIENT', 'PAUSE', '500', 'ALL');
    await expect(emulator.listBuckets()).rejects.toThrow(
      /^Redis at redis:\/\/127\.0\.0\.1:\d+\/0 did not answer within 200 ms$/,
    );
    await expect(emulator.listCodes()).rejects.toThrow(/did not answer within 200 ms$/);
    expect(statuses).toEqual([]);
    // Answered once the pause is over.
    await tests.inspect.ping();
    expect((await emulator.handle(exists())).status).toBe(200);
    expect(statuses).toEqual([]);
  });
});

describe.skipIf(!HAS_REDIS)('the Redis store when Redis runs what it was sent late', () => {
  const tests = redisOfTheseTests();

  /** Runs `during` while Redis holds every write (CLIENT PAUSE), then lets them all run. */
  async function whilePaused<T>(during: () => Promise<T>): Promise<T> {
    await tests.inspect.call('CLIENT', 'PAUSE', '10000', 'WRITE');
    try {
      return await during();
    } finally {
      await tests.inspect.call('CLIENT', 'UNPAUSE');
    }
  }

  it.each([
    ['on Redis time', {}],
    ['on a manual clock', { manualClock: { startMs: T0 } }],
  ])(
    'takes no token for a request answered 503 because Redis answered too late (%s)',
    async (_, clock) => {
      const emulator = await tests.instance({ timeoutMs: 300, ...clock });
      const answers = await whilePaused(() =>
        Promise.all(
          Array.from({ length: 5 }, () => emulator.handle(exists('alice@example.com', 'paused'))),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual([503, 503, 503, 503, 503]);
      expect((answers[0]?.body as { detail: string }).detail).toMatch(
        /^the shared store did not answer: Redis at redis:\/\/127\.0\.0\.1:\d+\/0 did not answer within 300 ms; nothing was changed$/,
      );
      // Redis has run the scripts held by the pause before it answers this read, sent after them
      // on the same connection: they changed nothing.
      expect(await emulator.getBucket('client:demo')).toBeUndefined();
      expect(await emulator.getBucket('caller:demo:paused')).toBeUndefined();
      expect(await tests.inspect.keys('uas:bucket:*')).toEqual([]);
      expect((await emulator.handle(exists('alice@example.com', 'paused'))).headers).toMatchObject({
        ratelimit: expect.stringMatching(/r=4/),
      });
    },
  );

  it('issues no code, and spends no code, when Redis answers a code script too late', async () => {
    const store = await tests.store({ timeoutMs: 300 });
    const { codes } = store;
    const issue = async (code: string) =>
      codes.issue(DEMO_MERCHANT, 'alice@example.com', code, 0, 600_000, 5);
    await expect(whilePaused(() => issue('111111'))).rejects.toThrow(
      /did not answer within 300 ms$/,
    );
    expect(await codes.latest('alice@example.com', DEMO_MERCHANT)).toBeUndefined();

    await issue('222222');
    const tries = await whilePaused(() =>
      Promise.allSettled([
        codes.verify(DEMO_MERCHANT, 'alice@example.com', '222222', 0),
        codes.verify(DEMO_MERCHANT, 'alice@example.com', '333333', 0),
      ]),
    );
    expect(tries.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(await codes.latest('alice@example.com', DEMO_MERCHANT)).toMatchObject({
      code: '222222',
      used: false,
      attemptsLeft: 5,
    });
    expect(await codes.verify(DEMO_MERCHANT, 'alice@example.com', '222222', 0)).toMatchObject({
      result: 'verified',
    });
  });
});

describe.skipIf(!HAS_REDIS)('the Redis store on a database it cannot use', () => {
  const tests = redisOfTheseTests();

  /** The connections named "uas" that Redis has, once the count settles on `count`. */
  async function uasConnections(count: number): Promise<number> {
    const named = async () =>
      ((await tests.inspect.client('LIST')) as string)
        .split('\n')
        .filter((line) => / name=uas /.test(line)).length;
    await eventually(async () => (await named()) === count).catch(() => {});
    return named();
  }

  it('refuses a database that does not exist, in one line, and closes its connections', async () => {
    const url = tests.server.url.replace(/\/0$/, '/99');
    const statuses: StoreStatus[] = [];
    const onStatus = (status: StoreStatus) => statuses.push(status);
    await expect(connectRedisStore({ url, config: SLOW, onStatus })).rejects.toThrow(
      new Error(`Redis at ${url}: database 99 does not exist (ERR DB index is out of range)`),
    );
    expect(await tests.inspect.keys('*')).toEqual([]);
    expect(await uasConnections(0)).toBe(0);
    // Neither "unreachable" nor "reachable again": the error says it all.
    expect(statuses).toEqual([]);
  });

  it('closes its connections when it fails after connecting (a key of another type at uas:meta)', async () => {
    await tests.inspect.set('uas:meta', 'junk');
    await expect(tests.store()).rejects.toThrow(/^Redis at .* answered with an error: WRONGTYPE/);
    expect(await uasConnections(0)).toBe(0);
  });

  it('never goes on in database 0 when its database cannot be selected on a reconnect', async () => {
    const statuses: StoreStatus[] = [];
    const url = tests.server.url.replace(/\/0$/, '/3');
    const emulator = await tests.instance({
      url,
      timeoutMs: 200,
      onStatus: (status) => statuses.push(status),
    });
    expect((await emulator.handle(exists())).status).toBe(200);
    try {
      // SELECT refused from now on; the connections of the store are cut, and it reconnects.
      await tests.inspect.call('ACL', 'SETUSER', 'default', '-select');
      await tests.inspect.client('KILL', 'USER', 'default', 'SKIPME', 'yes');
      await eventually(() =>
        statuses.some(
          (status) =>
            status.state === 'down' && /^database 3 cannot be selected/.test(status.error),
        ),
      );
      const refused = await emulator.handle(exists());
      expect(refused.status).toBe(503);
      expect((refused.body as { detail: string }).detail).toMatch(
        /Redis at redis:\/\/127\.0\.0\.1:\d+\/3 is not connected: database 3 cannot be selected \(NOPERM/,
      );
    } finally {
      await tests.inspect.call('ACL', 'SETUSER', 'default', '+select');
    }
    await eventually(async () => (await emulator.handle(exists())).status === 200);
    expect(await tests.inspect.keys('*')).toEqual([]);
    await tests.inspect.select(3);
    try {
      expect(await tests.inspect.hget('uas:bucket:{client:demo}', 'a')).toBe('2');
    } finally {
      await tests.inspect.select(0);
    }
  });
});

describe.skipIf(!HAS_REDIS)('the shared manual clock when Redis loses it', () => {
  const tests = redisOfTheseTests();
  const HOUR = 3_600_000;
  const advance = (emulator: SharedEmulator, ms: number) => {
    if (!('advance' in emulator.clock)) throw new Error('expected a manual clock');
    (emulator.clock as { advance(ms: number): void }).advance(ms);
  };
  const stored = async () => Number(await tests.inspect.get('uas:clock'));

  it('goes on from the time of the instance that moves it after a FLUSHALL, not from 1970', async () => {
    const a = await tests.instance({ manualClock: { startMs: T0 } });
    const b = await tests.instance({ manualClock: { startMs: T0 } });
    advance(a, HOUR);
    await eventually(() => b.clock.now() === T0 + HOUR);
    await tests.inspect.flushall();
    advance(a, 60_000);
    await eventually(async () => (await tests.inspect.exists('uas:clock')) === 1);
    expect(await stored()).toBe(T0 + HOUR + 60_000);
    await eventually(() => b.clock.now() === T0 + HOUR + 60_000);
    expect(a.clock.now()).toBe(T0 + HOUR + 60_000);
  });

  it('gives a Redis that restarted empty its time when it reconnects, and a new instance joins it', async () => {
    const a = await tests.instance({ manualClock: { startMs: T0 } });
    advance(a, HOUR);
    await eventually(async () => (await stored()) === T0 + HOUR);
    await tests.server.kill();
    await tests.server.restart();
    await eventually(async () => (await stored()) === T0 + HOUR);
    const late = await tests.instance({ manualClock: { startMs: T0 } });
    expect(late.clock.now()).toBe(T0 + HOUR);
    expect(a.clock.now()).toBe(T0 + HOUR);
  });
});

/** Reads a stream of events as it comes; `text` is what has come so far. */
function collectText(reader: ReadableStreamDefaultReader<Uint8Array>): { text: string } {
  const read = { text: '' };
  const decoder = new TextDecoder();
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      read.text += decoder.decode(value, { stream: true });
    }
  })();
  return read;
}

/**
 * A TCP proxy to a local port that can drop every connection, and hold back (never forward) what
 * a client sends from the moment it sends SUBSCRIBE.
 */
async function startProxy(target: number) {
  const { createServer, connect } = await import('node:net');
  const pairs = new Set<{ destroy(): void }>();
  const proxy = {
    port: 0,
    holdSubscribe: false,
    held: 0,
    dropAll() {
      for (const pair of pairs) pair.destroy();
      pairs.clear();
    },
    close: () => {
      proxy.dropAll();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    const pair = {
      destroy() {
        client.destroy();
        upstream.destroy();
      },
    };
    pairs.add(pair);
    client.on('error', () => pair.destroy());
    upstream.on('error', () => pair.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    let holding = false;
    client.on('data', (chunk: Buffer) => {
      holding ||= proxy.holdSubscribe && /subscribe/i.test(chunk.toString('latin1'));
      if (holding) proxy.held++;
      else upstream.write(chunk);
    });
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  proxy.port = (server.address() as { port: number }).port;
  return proxy;
}
