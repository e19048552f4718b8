import { setupServer } from 'msw/node';
import { listen } from '../../src/adapters/http/http-server.js';
import { createMswEngine } from '../../src/adapters/msw/msw-engine.js';
import { createHandlers } from '../../src/adapters/msw/msw-handlers.js';
import { createManualClock, type ManualClock } from '../../src/core/time/clock.js';
import { afterAll, beforeAll } from 'vitest';
import type { AnyEmulator, DevApiOptions, Emulator } from '../../src/core/emulator.js';
import { createSeededRandom } from '../../src/core/time/random.js';
import { createEmulator, createSharedEmulator } from '../../src/emulator.js';
import { DEMO_CONFIG } from '../../src/demo-config.js';
import { connectRedisStore } from '../../src/store/redis/redis-store.js';
import { STRICT } from './msw-options.js';
import { HAS_REDIS, startRedis, type TestRedis } from './redis-server.js';

/**
 * An emulator reachable through one transport, on a manual clock. Its `emulator` answers
 * synchronously, or (`AnyEmulator`, on a shared store) with promises: `await` what it answers.
 */
export interface Target<E extends AnyEmulator = Emulator> {
  baseUrl: string;
  emulator: E;
  clock: ManualClock;
  close(): Promise<void>;
}

/** What a test may vary in the emulator it gets. */
export interface TargetOptions {
  config?: unknown;
  devApi?: DevApiOptions;
}

/** A way of serving the emulator. */
export interface Transport<E extends AnyEmulator = Emulator> {
  name: string;
  start(options?: TargetOptions): Promise<Target<E>>;
}

/** A target whose emulator may be on the memory store or on the Redis store. */
export type AnyTarget = Target<AnyEmulator>;

export const START_TIME = Date.UTC(2026, 0, 1, 12, 0, 0);

function makeEmulator(options: TargetOptions = {}): { emulator: Emulator; clock: ManualClock } {
  const clock = createManualClock(START_TIME);
  return {
    clock,
    emulator: createEmulator({
      config: options.config ?? DEMO_CONFIG,
      devApi: options.devApi,
      clock,
      random: createSeededRandom(7),
    }),
  };
}

export const TRANSPORTS: Transport[] = [
  {
    name: 'node:http engine',
    async start(options) {
      const { emulator, clock } = makeEmulator(options);
      const running = await listen(emulator, 0, '127.0.0.1');
      return { baseUrl: running.url, emulator, clock, close: () => running.close(100) };
    },
  },
  {
    name: 'msw engine over HTTP',
    async start(options) {
      const { emulator, clock } = makeEmulator(options);
      const running = await listen(emulator, 0, '127.0.0.1', {
        engine: createMswEngine(emulator),
      });
      return { baseUrl: running.url, emulator, clock, close: () => running.close(100) };
    },
  },
  {
    name: 'msw setupServer in-process',
    async start(options) {
      const { emulator, clock } = makeEmulator(options);
      const baseUrl = 'http://uas.test';
      const server = setupServer(...createHandlers({ emulator, baseUrl }));
      server.listen(STRICT);
      return {
        baseUrl,
        emulator,
        clock,
        close: async () => server.close(),
      };
    },
  },
];

/**
 * The emulator on the Redis store (a redis-server of the calling file's own, started before its
 * tests and stopped after them) served over node:http; each target has a key prefix of its own.
 */
function redisTransport(server: () => TestRedis): Transport<AnyEmulator> {
  let targets = 0;
  return {
    name: 'node:http engine on the Redis store',
    async start(options = {}) {
      const config = options.config ?? DEMO_CONFIG;
      targets += 1;
      const store = await connectRedisStore({
        url: server().url,
        prefix: `uas-target-${targets}`,
        config,
        manualClock: { startMs: START_TIME },
        timeoutMs: 5_000,
      });
      const clock = store.clock as ManualClock;
      const emulator = createSharedEmulator({
        config,
        devApi: options.devApi,
        store,
        clock,
        random: createSeededRandom(7),
      });
      const running = await listen(emulator, 0, '127.0.0.1');
      return {
        baseUrl: running.url,
        emulator,
        clock,
        close: async () => {
          await running.close(100);
          await store.close();
        },
      };
    },
  };
}

/**
 * The cross-transport targets: {@link TRANSPORTS} and, where redis-server can run (required
 * under `UAS_REQUIRE_REDIS=1` and in CI), the emulator on the Redis store. Call it at the top of
 * a test file: it starts that file's redis-server before its tests and stops it after them.
 */
export function useTransports(): Array<Transport<AnyEmulator>> {
  if (!HAS_REDIS) return TRANSPORTS;
  let server: TestRedis | undefined;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server?.stop();
  });
  const redis = redisTransport(() => {
    if (server === undefined) throw new Error('redis-server has not started');
    return server;
  });
  return [...TRANSPORTS, redis];
}
