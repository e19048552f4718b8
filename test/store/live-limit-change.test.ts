import { describe, expect, it } from 'vitest';
import type { AnyEmulator } from '../../src/core/emulator.js';
import { DEMO_CONFIG } from '../../src/demo-config.js';
import { createSharedEmulator } from '../../src/emulator.js';
import { connectRedisStore } from '../../src/store/redis/redis-store.js';
import { eventually } from '../helpers/eventually.js';
import { HAS_REDIS } from '../helpers/redis-server.js';
import { devRequest, existsRequest, storesUnderTest, T0 } from '../helpers/stores-under-test.js';

const CLIENT = 'client:demo';
const { stores: STORES, redis } = storesUnderTest();
const exists = () => existsRequest();

/** Takes `count` tokens from the client bucket. */
async function take(emulator: AnyEmulator, count: number): Promise<void> {
  for (let index = 0; index < count; index++)
    expect((await emulator.handle(exists())).status).toBe(200);
}

async function change(emulator: AnyEmulator, limits: unknown): Promise<void> {
  const answer = await emulator.handle(devRequest('PATCH', '/config', { limits }));
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

const tokens = async (emulator: AnyEmulator) => (await emulator.getBucket(CLIENT))?.tokens;

describe.each(STORES)('a live change of limits on $name', (store) => {
  it('keeps a full bucket full when its rate is lowered', async () => {
    const { emulator, clock } = await store.start();
    await take(emulator, 1);
    clock.advance(1_000); // 10/s: full again
    await change(emulator, { client: { rate: '20/h' } });
    expect(await tokens(emulator)).toBe(20);
    // From the change on, the new rate: one token in three minutes.
    await take(emulator, 1);
    clock.advance(90_000);
    expect(await tokens(emulator)).toBe(19.5);
  });

  it('settles a refilling bucket at the old rate up to the change, and at the new one after it', async () => {
    const { emulator, clock } = await store.start();
    await take(emulator, 10);
    clock.advance(500); // 10 + 5 tokens at 10/s
    await change(emulator, { client: { rate: '20/h' } });
    expect(await tokens(emulator)).toBe(15);
    clock.advance(180_000);
    expect(await tokens(emulator)).toBe(16);
  });

  it('settles each of several changes made while the bucket was not used', async () => {
    const { emulator, clock } = await store.start();
    await take(emulator, 10);
    clock.advance(200); // +2 at 10/s
    await change(emulator, { client: { rate: '1/s' } });
    clock.advance(1_000); // +1 at 1/s
    await change(emulator, { client: { rate: '20/h' } });
    clock.advance(180_000); // +1 at 20/h
    expect(await tokens(emulator)).toBe(14);
    await take(emulator, 14);
    expect((await emulator.handle(exists())).status).toBe(429);
  });

  it('leaves the tokens under a raised burst as they were, and clamps them to a lowered one', async () => {
    const { emulator, clock } = await store.start();
    await take(emulator, 1);
    clock.advance(500); // full at the old burst of 20 after 100 ms
    await change(emulator, { client: { burst: 40 } });
    expect(await tokens(emulator)).toBe(20);
    clock.advance(1_000); // 10/s up to the new burst
    expect(await tokens(emulator)).toBe(30);
    await change(emulator, { client: { burst: 5 } });
    expect(await tokens(emulator)).toBe(5);
    clock.advance(60_000);
    await change(emulator, { client: { burst: 40 } });
    expect(await tokens(emulator)).toBe(5);
  });

  it('keeps the tokens a burst lowered and raised again at one instant cut, and a bucket first used after both full', async () => {
    const { emulator } = await store.start();
    await take(emulator, 16); // 4 left of 20, no time passes
    await change(emulator, { client: { burst: 1 }, caller: { burst: 1 } });
    await change(emulator, { client: { burst: 20 }, caller: { burst: 5 } });
    expect(await tokens(emulator)).toBe(1);
    await change(emulator, { client: { burst: 2 } });
    await change(emulator, { client: { burst: 20 } });
    expect(await tokens(emulator)).toBe(1);
    // A bucket first used after the changes, at the same instant, starts full at the burst now.
    expect((await emulator.handle(existsRequest('fresh'))).status).toBe(200);
    expect((await emulator.getBucket('caller:demo:fresh'))?.tokens).toBe(4);
    await take(emulator, 1);
    expect(await tokens(emulator)).toBe(0);
  });

  it.skipIf(!store.shared)(
    'settles a bucket once, at the moment of the change, on every instance sharing the store',
    async () => {
      const a = await store.start();
      const b = await store.start();
      await take(a.emulator, 10);
      a.clock.advance(500);
      await eventually(() => b.clock.now() === T0 + 500);
      await change(a.emulator, { client: { rate: '20/h' } });
      await eventually(() => b.emulator.config.limits.client.rateText === '20/h');
      b.clock.advance(180_000);
      await eventually(() => a.clock.now() === T0 + 180_500);
      expect(await tokens(b.emulator)).toBe(16);
      await take(b.emulator, 1);
      expect(await tokens(a.emulator)).toBe(15);
      // An instance that joins later takes the change, and when it was made, from the store.
      const c = await store.start();
      expect(c.emulator.config.limits.client.rateText).toBe('20/h');
      c.clock.advance(180_000);
      await take(c.emulator, 16);
      expect((await c.emulator.handle(exists())).status).toBe(429);
    },
  );
});

describe.skipIf(!HAS_REDIS)(
  'a live change of limits on the Redis store, on the system clock',
  () => {
    it('keeps the key of a bucket the change made slower to fill until it could be full again', async () => {
      const slow = {
        ...DEMO_CONFIG,
        limits: { client: { burst: 20, rate: '1/h' }, caller: { burst: 5, rate: '1/h' } },
      };
      const store = await connectRedisStore({ url: redis.server.url, config: slow });
      redis.opened.push(store);
      const emulator = createSharedEmulator({ config: slow, store });
      await take(emulator, 1);
      const key = `uas:bucket:{${CLIENT}}`;
      // One token at 1/h: an hour to be full again.
      expect(await redis.inspect.pttl(key)).toBeLessThanOrEqual(3_600_001);
      await change(emulator, { client: { rate: '1/24h' } });
      // Now 24 hours for that token: the key lives at least that long (an empty bucket's 20 days).
      expect(await redis.inspect.pttl(key)).toBeGreaterThan(20 * 86_400_000 - 60_000);
      expect((await emulator.getBucket(CLIENT))?.remaining).toBe(19);
      // A level the change did not touch keeps its keys' times.
      await emulator.handle({ ...exists(), url: `${exists().url}&caller_id=c` });
      await change(emulator, { client: { rate: '1/12h' } });
      expect(await redis.inspect.pttl('uas:bucket:{caller:demo:c}')).toBeLessThanOrEqual(3_600_001);
    });
  },
);
