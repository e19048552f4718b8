import type { Redis } from 'ioredis';
import type { SharedEmulator } from '../../src/core/emulator.js';
import type { EmulatorRequest } from '../../src/core/service/exchange.js';
import { DEMO_CONFIG, DEMO_MERCHANT, DEMO_TOKEN } from '../../src/demo-config.js';
import { createSharedEmulator } from '../../src/emulator.js';
import {
  connectRedisStore,
  type RedisStore,
  type RedisStoreOptions,
} from '../../src/store/redis/redis-store.js';
import { useTestRedis, type TestRedis } from '../helpers/redis-server.js';

/** What the tests of the Redis store share: a config, requests, a server of their own. */

export const T0 = Date.UTC(2026, 0, 1);
/** Buckets that never refill within a test. */
export const SLOW = {
  ...DEMO_CONFIG,
  limits: { client: { burst: 20, rate: '1/h' }, caller: { burst: 5, rate: '1/h' } },
};

export const exists = (email = 'alice@example.com', callerId?: string): EmulatorRequest => ({
  method: 'GET',
  url: `/v1/users/exists?email=${encodeURIComponent(email)}${callerId === undefined ? '' : `&caller_id=${callerId}`}`,
  headers: { host: 'uas.test', authorization: `Bearer ${DEMO_TOKEN}` },
});

export const signIn = (
  action: 'start' | 'verify',
  body: Record<string, unknown>,
): EmulatorRequest => ({
  method: 'POST',
  url: `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/${action}`,
  headers: {
    host: 'uas.test',
    authorization: `Bearer ${DEMO_TOKEN}`,
    'content-type': 'application/json',
  },
  body: JSON.stringify(body),
});

/**
 * A redis-server of a describe block's own, a connection to look into it, and the stores its
 * tests open: closed, and Redis flushed, after each test.
 */
export function redisOfTheseTests() {
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

/** Reads a stream of events as it comes; `text` is what has come so far. */
export function collectText(reader: ReadableStreamDefaultReader<Uint8Array>): { text: string } {
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
export async function startProxy(target: number) {
  const { createServer, connect } = await import('node:net');
  const pairs = new Set<{ destroy(): void }>();
  const proxy = {
    port: 0,
    holdSubscribe: false,
    held: 0,
    /** Swallows each SUBSCRIBE while set (it gets no answer), and lets everything else through. */
    swallowSubscribe: false,
    swallowed: 0,
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
      const subscribing = /subscribe/i.test(chunk.toString('latin1'));
      holding ||= proxy.holdSubscribe && subscribing;
      if (holding) proxy.held++;
      else if (proxy.swallowSubscribe && subscribing) proxy.swallowed++;
      else upstream.write(chunk);
    });
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  proxy.port = (server.address() as { port: number }).port;
  return proxy;
}
