import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SharedEmulator } from '../../src/core/emulator.js';
import type { EmulatorRequest } from '../../src/core/service/exchange.js';
import { createSeededRandom } from '../../src/core/time/random.js';
import { DEMO_MERCHANT } from '../../src/demo-config.js';
import { createSharedEmulator } from '../../src/emulator.js';
import {
  connectRedisStore,
  type RedisStore,
  type RedisStoreOptions,
  type StoreStatus,
} from '../../src/store/redis/redis-store.js';
import { eventually } from '../helpers/eventually.js';
import { HAS_REDIS, startRedis, type TestRedis } from '../helpers/redis-server.js';
import { collectText, exists, signIn, SLOW, T0 } from './redis-store-fixtures.js';

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

  it('sends the takes of one turn of the event loop to Redis as one script run, exact in order', async () => {
    const one = await instance({ watchIntervalMs: 60_000 });
    await one.handle(exists()); // loads the script
    const scriptRuns = async () => {
      const stats = await inspect.info('commandstats');
      return [...stats.matchAll(/^cmdstat_eval(?:sha)?:calls=(\d+)/gm)].reduce(
        (sum, match) => sum + Number(match[1]),
        0,
      );
    };
    const before = await scriptRuns();
    const answers = await Promise.all(Array.from({ length: 100 }, () => one.handle(exists())));
    const runs = (await scriptRuns()) - before;
    expect(runs).toBeGreaterThanOrEqual(1);
    expect(runs).toBeLessThanOrEqual(2);
    // The first take of the test took one token of 20: the first 19 of the 100 are let through.
    expect(answers.map((answer) => answer.status)).toEqual([
      ...Array<number>(19).fill(200),
      ...Array<number>(81).fill(429),
    ]);
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
    await eventually(
      async () =>
        ((await b.handle(exists('new@example.com'))).body as { exists?: boolean }).exists === true,
    );
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

  it('orders live changes made at the same moment on two instances: each applies both, alike', async () => {
    const a = await instance();
    const b = await instance();
    for (let round = 1; round <= 5; round++) {
      // Each merged into the limits its instance has, before it has heard of the other.
      const [fromA, fromB] = await Promise.all([
        a.configure({ limits: { caller: { burst: round + 1 } } }),
        b.configure({ limits: { client: { burst: 20 + round } } }),
      ]);
      const both = (config: typeof a.config) =>
        config.limits.caller.burst === round + 1 && config.limits.client.burst === 20 + round;
      // Whichever Redis kept second was merged into the first: it answers both.
      expect(both(fromA) || both(fromB)).toBe(true);
      await eventually(() => both(a.config) && both(b.config));
      expect(a.config.source.limits).toEqual(b.config.source.limits);
    }
    const meta = await inspect.hgetall('uas:meta');
    expect(JSON.parse(meta.live ?? '{}').limits).toEqual(a.config.source.limits);
    // Two kept a round, each on the other's: none was lost.
    expect(meta.version).toBe('10');
    // Three at once, each moving a part of its own.
    const c = await instance();
    await Promise.all([
      a.configure({ behavior: { headers: 'x-ratelimit' } }),
      b.configure({ otp: { maxAttempts: 2 } }),
      c.configure({ limits: { caller: { rate: '2/h' } } }),
    ]);
    const all = (config: typeof a.config) =>
      config.behavior.headers === 'x-ratelimit' &&
      config.otp.maxAttempts === 2 &&
      config.source.limits.caller.rate === '2/h';
    await eventually(() => all(a.config) && all(b.config) && all(c.config));
    expect(await inspect.hget('uas:meta', 'version')).toBe('13');
  });

  it('orders users added and removed at the same moment on two instances: each ends as the list says', async () => {
    const a = await instance();
    const b = await instance();
    let probes = 0;
    // Asked with a caller_id of its own each time: no bucket runs out.
    const ask = async (emulator: SharedEmulator, email: string) =>
      (await emulator.handle(exists(email, `probe-${probes++}`))).body as {
        exists?: boolean;
        token_count?: number;
      };
    const lastKept = async () =>
      JSON.parse((await inspect.lrange('uas:users', -1, -1))[0] ?? '[]') as unknown[];
    for (let round = 0; round < 6; round++) {
      const email = `x${round}@example.com`;
      // Added on both at once, each with its own token count: the one Redis kept last stands.
      await Promise.all([
        a.addUsers([{ email, token_count: 1 }]),
        b.addUsers([{ email, token_count: 2 }]),
      ]);
      const count = ((await lastKept())[0] as { token_count: number }).token_count;
      await eventually(
        async () =>
          (await ask(a, email)).token_count === count &&
          (await ask(b, email)).token_count === count,
      );
      // One adds the user again while the other removes it: whichever Redis kept last stands.
      await Promise.all([a.addUsers([{ email }]), b.removeUser(email)]);
      const stays = (await lastKept())[0] !== 'remove';
      await eventually(
        async () =>
          (await ask(a, email)).exists === stays && (await ask(b, email)).exists === stays,
      );
    }
    // Three at once, each adding a user of its own: every instance has them all.
    const c = await instance();
    await Promise.all(
      [a, b, c].map((emulator, index) =>
        emulator.addUsers([{ email: `many${index}@example.com` }]),
      ),
    );
    for (const emulator of [a, b, c])
      for (const index of [0, 1, 2])
        await eventually(
          async () => (await ask(emulator, `many${index}@example.com`)).exists === true,
        );
  });

  it('keeps a live change on a version of the live state written by hand, a whole number or not', async () => {
    const a = await instance();
    const b = await instance();
    // Not a whole number: counted as none.
    await inspect.hset('uas:meta', 'version', 'junk');
    expect((await a.configure({ limits: { caller: { burst: 3 } } })).limits.caller.burst).toBe(3);
    await eventually(() => b.config.limits.caller.burst === 3);
    expect(await inspect.hget('uas:meta', 'version')).toBe('1');
    // Ahead of what the instances have: the change is made again on it, once.
    await inspect.hset('uas:meta', 'version', '7');
    expect((await b.configure({ limits: { caller: { burst: 2 } } })).limits.caller.burst).toBe(2);
    await eventually(() => a.config.limits.caller.burst === 2);
    expect(await inspect.hget('uas:meta', 'version')).toBe('8');
  });

  it('keeps a live change, applied on every instance, on a version written by hand past 10^14 or past 2^53', async () => {
    const a = await instance();
    const b = await instance();
    // A whole number Lua would print as 1e+14: kept as the next one, written out in full.
    await inspect.hset('uas:meta', 'version', '100000000000000');
    expect((await a.configure({ limits: { caller: { burst: 3 } } })).limits.caller.burst).toBe(3);
    await eventually(() => b.config.limits.caller.burst === 3);
    expect(await inspect.hget('uas:meta', 'version')).toBe('100000000000001');
    // Past what a number holds exactly (no instance can count on from it): counted as none.
    await inspect.hset('uas:meta', 'version', '1e300');
    expect((await b.configure({ limits: { caller: { burst: 2 } } })).limits.caller.burst).toBe(2);
    await eventually(() => a.config.limits.caller.burst === 2);
    expect(await inspect.hget('uas:meta', 'version')).toBe('1');
    await inspect.hset('uas:meta', 'version', '9007199254740993');
    await b.reset();
    expect(await inspect.hget('uas:meta', 'version')).toBe('1');
    expect((await a.configure({ limits: { caller: { burst: 4 } } })).limits.caller.burst).toBe(4);
    await eventually(() => b.config.limits.caller.burst === 4);
    expect(await inspect.hget('uas:meta', 'version')).toBe('2');
  });

  it('shares a change kept on a version written by hand behind the one the instances have', async () => {
    const a = await instance();
    const b = await instance();
    await a.configure({ limits: { caller: { burst: 2 } } });
    await a.configure({ limits: { caller: { burst: 3 } } });
    await eventually(() => b.config.limits.caller.burst === 3);
    await inspect.hset('uas:meta', 'version', 'junk');
    // Kept as version 1: b, past it, reads what Redis keeps rather than take it for an old one.
    expect((await a.configure({ limits: { caller: { burst: 4 } } })).limits.caller.burst).toBe(4);
    await eventually(() => b.config.limits.caller.burst === 4);
    // And a change sent with a version no instance kept (another program's) holds up none.
    await inspect.publish(
      'uas:changes',
      JSON.stringify({
        from: 'elsewhere',
        change: { type: 'config', live: { limits: { caller: { burst: 9 } } } },
        version: Number.MAX_SAFE_INTEGER,
      }),
    );
    await eventually(() => a.config.limits.caller.burst === 9);
    await b.configure({ otp: { maxAttempts: 2 } });
    await eventually(() => a.config.otp.maxAttempts === 2 && a.config.limits.caller.burst === 4);
  });

  it('takes no change sent before a reset for a later one, and reads the changes kept after it', async () => {
    const a = await instance();
    const b = await instance();
    await a.configure({ limits: { caller: { burst: 2 } } });
    await eventually(() => b.config.limits.caller.burst === 2);
    const kept = await inspect.hgetall('uas:meta');
    await b.reset();
    await eventually(() => a.config.limits.caller.burst === 5);
    // Past every version kept before it.
    expect(await inspect.hget('uas:meta', 'version')).toBe('2');
    const send = (message: object) =>
      inspect.publish('uas:changes', JSON.stringify({ from: 'elsewhere', ...message }));
    // A change kept before the reset, heard after it (its instance was slow to send it).
    await send({ change: { type: 'config', live: JSON.parse(kept.live ?? '') }, version: 1 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([a.config.limits.caller.burst, b.config.limits.caller.burst]).toEqual([5, 5]);
    // A change kept after another reset cleared Redis, heard before that reset: read again.
    await inspect.hset('uas:meta', { live: kept.live, past: kept.past, version: '4' });
    await send({ change: { type: 'reset' }, version: 3 });
    await eventually(
      () => a.config.limits.caller.burst === 2 && b.config.limits.caller.burst === 2,
    );
  });

  it('catches up, once its subscriber is back, with a reset sent while it was away', async () => {
    const a = await instance();
    const b = await instance();
    await a.configure({ limits: { caller: { burst: 2 } } });
    await a.addUsers([{ email: 'new@example.com' }]);
    const known = async (emulator: typeof a) =>
      ((await emulator.handle(exists('new@example.com'))).body as { exists: boolean }).exists;
    await eventually(async () => b.config.limits.caller.burst === 2 && (await known(b)));
    // Redis as a reset leaves it, the reset never heard (sent while the subscribers were away);
    // their subscribers are cut off, and reconnect.
    await inspect.del('uas:users');
    await inspect.hdel('uas:meta', 'live', 'past');
    await inspect.hset('uas:meta', { version: '2', reset: '2' });
    await inspect.client('KILL', 'TYPE', 'pubsub');
    await eventually(
      async () =>
        a.config.limits.caller.burst === 5 &&
        b.config.limits.caller.burst === 5 &&
        !(await known(a)) &&
        !(await known(b)),
    );
    // Missed again, and a change made after it, both kept: each is made, in order.
    await a.addUsers([{ email: 'new@example.com' }]);
    await a.configure({ limits: { caller: { burst: 2 } } });
    await eventually(async () => b.config.limits.caller.burst === 2 && (await known(b)));
    await inspect.del('uas:users');
    await inspect.hset('uas:meta', { version: '5', reset: '4' });
    await inspect.client('KILL', 'TYPE', 'pubsub');
    await eventually(async () => !(await known(a)) && !(await known(b)));
    expect([a.config.limits.caller.burst, b.config.limits.caller.burst]).toEqual([2, 2]);
  });

  it('takes, within its catch-up time, a change Redis keeps whose message it never heard', async () => {
    const a = await instance({ catchUpEveryMs: 50 });
    const b = await instance({ catchUpEveryMs: 50 });
    await a.configure({ limits: { caller: { burst: 4 } } });
    await eventually(() => b.config.limits.caller.burst === 4);
    const kept = await inspect.hgetall('uas:meta');
    await a.configure({ limits: { caller: { burst: 3 } } });
    await eventually(() => b.config.limits.caller.burst === 3);
    // Kept as the next version, and users added, with no message and no reconnect (a subscriber
    // replaced unheard, a message that could not be sent).
    await inspect.hset('uas:meta', { live: kept.live, past: kept.past, version: '3' });
    await inspect.rpush('uas:users', JSON.stringify([{ email: 'quiet@example.com' }]));
    await eventually(
      () => a.config.limits.caller.burst === 4 && b.config.limits.caller.burst === 4,
    );
    let probes = 0;
    for (const emulator of [a, b])
      await eventually(
        async () =>
          (
            (await emulator.handle(exists('quiet@example.com', `q${probes++}`))).body as {
              exists?: boolean;
            }
          ).exists === true,
      );
  });

  it('catches up, once its subscriber is back, with a live change sent while it was away', async () => {
    const a = await instance();
    const b = await instance();
    await a.configure({ limits: { caller: { burst: 4 } } });
    await eventually(() => b.config.limits.caller.burst === 4);
    const kept = await inspect.hgetall('uas:meta');
    await a.configure({ limits: { caller: { burst: 3 } } });
    await eventually(() => b.config.limits.caller.burst === 3);
    // The change to 4 again, kept in Redis but never heard (as one sent while the instances'
    // subscribers were away); their subscribers are cut off, and reconnect.
    await inspect.hset('uas:meta', { live: kept.live, past: kept.past });
    await inspect.client('KILL', 'TYPE', 'pubsub');
    await eventually(
      () => a.config.limits.caller.burst === 4 && b.config.limits.caller.burst === 4,
    );
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
