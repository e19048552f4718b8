import { describe, expect, it } from 'vitest';
import type { EmulatorResponse } from '../../src/core/service/exchange.js';
import { DEMO_MERCHANT } from '../../src/demo-config.js';
import { HAS_REDIS } from '../helpers/redis-server.js';
import {
  devRequest,
  existsRequest,
  storesUnderTest,
  T0,
  type StoreUnderTest,
} from '../helpers/stores-under-test.js';

const { stores, redis } = storesUnderTest();
const shared = stores.find((store) => store.shared) as StoreUnderTest;
const KEY = 'uas:bucket:{caller:demo:x}';

/** The body of an answer as a client reads it: the text sent, parsed. */
function sentBody(answer: EmulatorResponse): Record<string, unknown> {
  const text = answer.text ?? JSON.stringify(answer.body);
  expect(text).not.toMatch(/Infinity|NaN/);
  return JSON.parse(text) as Record<string, unknown>;
}

describe.skipIf(!HAS_REDIS)('a bucket whose hash was edited by hand in Redis', () => {
  it.each([
    ['-1e308', String(T0), 429],
    ['-5', String(T0), 429],
    ['1e308', String(T0), 200],
    ['3', '1e300', 200],
    ['3', '-1e300', 200],
  ])(
    'with tokens %s updated at %s answers %i with whole seconds, valid fields and a JSON body',
    async (tokens, updatedAt, status) => {
      const { emulator } = await shared.start();
      await redis.inspect.hset(KEY, { t: tokens, u: updatedAt, a: '1' });
      const answer = await emulator.handle(existsRequest('x'));
      expect(answer.status).toBe(status);
      sentBody(answer);
      if (status === 429) {
        // Tokens below none count as none: a token is back in a second at 1/s.
        expect(answer.headers['retry-after']).toBe('1');
        expect(answer.headers['ratelimit']).toBe('"caller";r=0;t=1');
        expect(sentBody(answer)).toMatchObject({ retry_after: 1 });
      } else {
        // Tokens above the burst count as the burst; a time no clock can show, as no bucket.
        expect(answer.headers['ratelimit']).toBe('"caller";r=4;t=1');
      }
      const listed = await emulator.handle(devRequest('GET', '/buckets'));
      expect(listed.status).toBe(200);
      for (const bucket of (sentBody(listed) as { buckets: Array<Record<string, unknown>> })
        .buckets) {
        expect(bucket.tokens).toBeGreaterThanOrEqual(0);
        expect(bucket.tokens).toBeLessThanOrEqual(bucket.burst as number);
        expect(Number.isNaN(Date.parse(bucket.last_seen as string))).toBe(false);
      }
    },
  );

  it('lists and reads the bucket before any request, within its burst and with a date', async () => {
    const { emulator } = await shared.start();
    await redis.inspect.hset(KEY, { t: '-1e308', u: String(T0) });
    await redis.inspect.hset('uas:bucket:{client:demo}', { t: '1e308', u: '9e15' });
    const one = await emulator.handle(
      devRequest('GET', `/buckets/${encodeURIComponent('caller:demo:x')}`),
    );
    expect(one.status).toBe(200);
    expect(sentBody(one)).toMatchObject({ tokens: 0, remaining: 0, next_token_ms: 1000 });
    const all = await emulator.handle(devRequest('GET', '/buckets'));
    expect(all.status).toBe(200);
    expect(sentBody(all)).toMatchObject({ total: 1 });
  });
});

describe.skipIf(!HAS_REDIS)('a code whose hash was edited by hand in Redis', () => {
  it('counts a code with an expiry no clock can show as none', async () => {
    const { emulator } = await shared.start();
    await redis.inspect.hset(`uas:code:{${DEMO_MERCHANT} alice@example.com}`, {
      ...{ m: DEMO_MERCHANT, e: 'alice@example.com', c: '123456', i: String(T0) },
      ...{ x: '1e99', a: '3', used: '0' },
    });
    const codes = await emulator.handle(devRequest('GET', '/codes'));
    expect(codes.status).toBe(200);
    expect(sentBody(codes)).toEqual({ codes: [] });
    expect((await emulator.handle(devRequest('GET', '/codes/alice%40example.com'))).status).toBe(
      404,
    );
  });
});

/** A live change that reads as JSON but that no config takes (a rate past any number). */
const INVALID_LIVE = '{"limits":{"caller":{"rate":"1e400/s"}}}';

describe.skipIf(!HAS_REDIS)('uas:meta or uas:users holding junk', () => {
  const health = async (
    store: StoreUnderTest['start'] extends () => Promise<infer R> ? R : never,
  ) => sentBody(await store.emulator.handle(devRequest('GET', '/health'))).store;

  it.each([
    ['uas:meta', 'a string', () => redis.inspect.set('uas:meta', 'junk')],
    [
      'uas:meta',
      'a live change that is not JSON',
      () => redis.inspect.hset('uas:meta', 'live', '{'),
    ],
    ['uas:meta', 'past limits that are not', () => redis.inspect.hset('uas:meta', 'past', '[1]')],
    [
      'uas:meta',
      'a live change that is JSON but no valid config',
      () => redis.inspect.hset('uas:meta', 'live', INVALID_LIVE),
    ],
    ['uas:meta', 'a fingerprint of no config', () => redis.inspect.hset('uas:meta', 'base', 'x')],
    ['uas:users', 'a hash', () => redis.inspect.hset('uas:users', 'a', 'b')],
    ['uas:users', 'a list of something else', () => redis.inspect.rpush('uas:users', 'junk')],
  ])('%s holding %s: health says degraded until a reset repairs it', async (_, __, write) => {
    const running = await shared.start();
    const { emulator } = running;
    expect(await health(running)).toBe('up');
    await write();
    expect(await health(running)).toBe('degraded');
    const reset = await emulator.handle(devRequest('POST', '/reset'));
    expect(reset.status).toBe(200);
    expect(await health(running)).toBe('up');
    // Repaired: live changes are kept again, and another instance joins this one.
    const patched = await emulator.handle(
      devRequest('PATCH', '/config', { limits: { caller: { burst: 2 } } }),
    );
    expect(patched.status).toBe(200);
    const added = await emulator.handle(
      devRequest('POST', '/users', { users: [{ email: 'new@example.com' }] }),
    );
    expect(added.status).toBe(200);
    const other = await shared.start();
    expect(other.store?.joined).toBe(true);
    expect(other.emulator.config.limits.caller.burst).toBe(2);
    expect(await health(other)).toBe('up');
  });

  it('does not join a live change that is JSON but no valid config: the instance says degraded and runs the limits of the others', async () => {
    const first = await shared.start();
    await redis.inspect.hset('uas:meta', 'live', INVALID_LIVE);
    const second = await shared.start();
    expect(second.store?.joined).toBe(false);
    expect(await health(second)).toBe('degraded');
    expect(await health(first)).toBe('degraded');
    expect(second.emulator.config.limits.caller).toEqual(first.emulator.config.limits.caller);
  });
});
