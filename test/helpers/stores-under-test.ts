import type { AnyEmulator } from '../../src/core/emulator.js';
import type { EmulatorRequest } from '../../src/core/service/exchange.js';
import { createManualClock, type ManualClock } from '../../src/core/time/clock.js';
import { createSeededRandom } from '../../src/core/time/random.js';
import { DEMO_CONFIG, DEMO_TOKEN } from '../../src/demo-config.js';
import { createEmulator, createSharedEmulator } from '../../src/emulator.js';
import { connectRedisStore, type RedisStore } from '../../src/store/redis/redis-store.js';
import { HAS_REDIS, useTestRedis } from './redis-server.js';

/** When the manual clock of an emulator under test starts. */
export const T0 = Date.UTC(2026, 0, 1);

/** An emulator on a manual clock. */
export interface RunningEmulator {
  emulator: AnyEmulator;
  clock: ManualClock;
  /** Its Redis store; undefined on the memory store. */
  store: RedisStore | undefined;
}

/** A store an emulator can run on, for tests that hold on both. */
export interface StoreUnderTest {
  name: string;
  /** Whether other instances can share the store (each `start` is one more). */
  shared: boolean;
  start(): Promise<RunningEmulator>;
}

/**
 * The memory store and, where redis-server can run, the Redis store (a redis-server of the
 * file's own, flushed after each test, in `redis`): `describe.each` over `stores` runs a test on
 * both.
 */
export function storesUnderTest(config: unknown = DEMO_CONFIG): {
  stores: StoreUnderTest[];
  redis: ReturnType<typeof useTestRedis>;
} {
  const redis = useTestRedis();
  const memory: StoreUnderTest = {
    name: 'the memory store',
    shared: false,
    start: async () => {
      const clock = createManualClock(T0);
      const emulator = createEmulator({ config, clock, random: createSeededRandom(1) });
      return { emulator, clock, store: undefined };
    },
  };
  const shared: StoreUnderTest = {
    name: 'the Redis store',
    shared: true,
    start: async () => {
      const store = await connectRedisStore({
        url: redis.server.url,
        config,
        manualClock: { startMs: T0 },
        watchIntervalMs: 20,
        timeoutMs: 5_000,
      });
      redis.opened.push(store);
      const clock = store.clock as ManualClock;
      const random = createSeededRandom(redis.opened.length);
      const emulator = createSharedEmulator({ config, store, clock, random });
      return { emulator, clock, store };
    },
  };
  return { stores: HAS_REDIS ? [memory, shared] : [memory], redis };
}

/** `GET /v1/users/exists` for alice, with the demo token (and a caller_id if given). */
export function existsRequest(callerId?: string): EmulatorRequest {
  const caller = callerId === undefined ? '' : `&caller_id=${encodeURIComponent(callerId)}`;
  return {
    method: 'GET',
    url: `/v1/users/exists?email=alice%40example.com${caller}`,
    headers: { host: 'uas.test', authorization: `Bearer ${DEMO_TOKEN}` },
  };
}

/** A call of the dev API, from loopback, with a JSON body when one is given. */
export function devRequest(method: string, path: string, body?: unknown): EmulatorRequest {
  return {
    method,
    url: `/__uas${path}`,
    headers: { host: '127.0.0.1', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  };
}
