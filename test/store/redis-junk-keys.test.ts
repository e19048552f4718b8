import { describe, expect, it } from 'vitest';
import { DEMO_MERCHANT } from '../../src/demo-config.js';
import { createSharedEmulator } from '../../src/emulator.js';
import { type StoreStatus } from '../../src/store/redis/redis-store.js';
import { eventually } from '../helpers/eventually.js';
import { HAS_REDIS } from '../helpers/redis-server.js';
import { exists, redisOfTheseTests, signIn, SLOW, T0 } from './redis-store-fixtures.js';

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
    // In key order, every key is reached: a walk by `after` lists all 12,000, each once.
    const walked: string[] = [];
    let after: string | undefined;
    for (;;) {
      const next = await emulator.listBuckets({ sort: 'key', limit: 1000, after });
      walked.push(...next.buckets.map((bucket) => bucket.key));
      if (next.buckets.length === 0 || next.total <= next.buckets.length) break;
      after = next.buckets.at(-1)!.key;
    }
    expect(walked).toHaveLength(12_000);
    expect(new Set(walked).size).toBe(12_000);
    expect(walked).toEqual([...walked].sort());
    const tail = await emulator.listBuckets({
      sort: 'key',
      limit: 5,
      after: 'caller:demo:ip-9998',
    });
    expect(tail).toMatchObject({ total: 1, buckets: [{ key: 'caller:demo:ip-9999' }] });
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
