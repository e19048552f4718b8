import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { defineScripts } from '../../src/store/redis/scripted-redis.js';
import type { SharedEmulator } from '../../src/core/emulator.js';
import { DEMO_MERCHANT } from '../../src/demo-config.js';
import { connectRedisStore, type StoreStatus } from '../../src/store/redis/redis-store.js';
import { eventually } from '../helpers/eventually.js';
import { HAS_REDIS } from '../helpers/redis-server.js';
import { exists, redisOfTheseTests, SLOW, T0 } from './redis-store-fixtures.js';

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

  it('answers a request made while an earlier one waits on a paused Redis within its own timeout, not after both', async () => {
    const emulator = await tests.instance({ timeoutMs: 1000 });
    const [first, second] = await whilePaused(async () => {
      const answered = (pending: ReturnType<typeof emulator.handle>) =>
        Promise.resolve(pending).then((answer) => ({ answer, at: performance.now() }));
      const first = answered(emulator.handle(exists('alice@example.com', 'first')));
      // The next turn of the event loop: the first run is out, and Redis holds it.
      await new Promise((resolve) => setImmediate(resolve));
      const second = await answered(emulator.handle(exists('alice@example.com', 'second')));
      return [await first, second] as const;
    });
    expect(first.answer.status).toBe(503);
    expect(second.answer.status).toBe(503);
    // Each gives up after its own 1 s (the second a turn and the 5 ms hold later), where,
    // queued behind the first run, the second gave up a whole timeout after it. Measured one
    // against the other, so that a slow machine delays both alike.
    expect(second.at - first.at).toBeLessThan(500);
    expect(await tests.inspect.keys('uas:bucket:*')).toEqual([]);
  });

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

  it('adds and removes no user, on any instance, for a change answered 503 because Redis answered too late', async () => {
    const a = await tests.instance({ timeoutMs: 300 });
    const b = await tests.instance({ timeoutMs: 300 });
    const known = async (emulator: SharedEmulator, email: string, caller: string) =>
      ((await emulator.handle(exists(email, caller))).body as { exists: boolean }).exists;
    await expect(
      whilePaused(() => Promise.resolve(a.addUsers([{ email: 'late@example.com' }]))),
    ).rejects.toThrow(/did not answer within 300 ms$/);
    await expect(
      whilePaused(() => Promise.resolve(a.removeUser('bob@example.com'))),
    ).rejects.toThrow(/did not answer within 300 ms$/);
    // Redis has run what the pause held: nothing kept, and a change made since brings none of it.
    expect(await tests.inspect.lrange('uas:users', 0, -1)).toEqual([]);
    await b.addUsers([{ email: 'later@example.com' }]);
    await eventually(() => known(a, 'later@example.com', 'a1'));
    for (const [emulator, name] of [
      [a, 'a'],
      [b, 'b'],
    ] as const) {
      expect(await known(emulator, 'late@example.com', `${name}2`)).toBe(false);
      expect(await known(emulator, 'bob@example.com', `${name}3`)).toBe(true);
    }
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

  it('shares a live change made after a FLUSHALL with every instance, as the next version of theirs', async () => {
    const a = await tests.instance();
    const b = await tests.instance();
    await a.configure({ limits: { caller: { burst: 2 } } });
    await a.configure({ limits: { caller: { burst: 3 } } });
    await eventually(() => b.config.limits.caller.burst === 3);
    await tests.inspect.flushall();
    // Made on the version both have: not one the others take for one they are past already.
    await a.configure({ limits: { caller: { burst: 4 } } });
    await eventually(() => b.config.limits.caller.burst === 4);
    const meta = await tests.inspect.hgetall('uas:meta');
    expect(meta.version).toBe('3');
    // Kept with the config's fingerprint, as on a Redis that restarted empty: not degraded.
    expect(meta.base).toMatch(/^[0-9a-f]{64}$/);
    await b.configure({ otp: { maxAttempts: 2 } });
    await eventually(() => a.config.otp.maxAttempts === 2);
    expect(a.config.limits.caller.burst).toBe(4);
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

  it('makes the takes of a run whose deadlines have not passed, and only answers the others late', async () => {
    const redis = defineScripts(new Redis(tests.server.url));
    try {
      // One take a second past its deadline, then one with none, sharing one group of arguments
      // (from ARGV[7]): burst 5, 1 token an hour, cost 1.
      const group = [
        '5',
        String(1 / 3_600_000),
        '1',
        'decide',
        '0',
        '1',
        '0',
        '60000',
        '60000',
        '0',
      ];
      const reply = await redis.uasTake(
        2,
        'late:{x}',
        'kept:{y}',
        ...['', '', '1', '7', '', '7'],
        ...group,
      );
      expect(reply).toEqual([expect.stringMatching(/^\d/), 'late', '', '', '']);
      expect(await redis.exists('late:{x}')).toBe(0);
      expect(await redis.hget('kept:{y}', 't')).toBe('4');
      expect(await redis.hget('kept:{y}', 'a')).toBe('1');
    } finally {
      redis.disconnect();
    }
  });
});

describe.skipIf(!HAS_REDIS)('the users of the instances when Redis loses uas:meta', () => {
  const tests = redisOfTheseTests();
  const owner = async (emulator: SharedEmulator, phone: string) =>
    (await emulator.listUsers()).users.find((user) => user.phone_number === phone)?.email;

  it('keeps the users added live on an instance that read uas:meta while it was gone, when another instance writes it back', async () => {
    const a = await tests.instance();
    const b = await tests.instance({ catchUpEveryMs: 20 });
    await a.reset();
    await a.addUsers([
      { email: 'alice@example.com' },
      { email: 'kim@example.com', phone_number: '+14155550101' },
    ]);
    await eventually(async () => (await owner(b, '+14155550101')) === 'kim@example.com');
    const meta = await tests.inspect.hgetall('uas:meta');
    await tests.inspect.flushall();
    // b reads the live state Redis keeps (every 20 ms here) while there is none.
    await new Promise((resolve) => setTimeout(resolve, 200));
    // What an instance that reconnects to the emptied Redis writes back (seedMeta): the same
    // fingerprint, then the version, no live change; b reads it between the two too. No reset
    // was made: b keeps its users.
    await tests.inspect.hsetnx('uas:meta', 'base', meta.base ?? '');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await tests.inspect.hset('uas:meta', { version: meta.version });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await owner(b, '+14155550101')).toBe('kim@example.com');
    expect(await owner(a, '+14155550101')).toBe('kim@example.com');
  });
});
