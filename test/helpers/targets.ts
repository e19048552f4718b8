import { setupServer } from 'msw/node';
import { listen } from '../../src/adapters/http/http-server.js';
import { createMswEngine } from '../../src/adapters/msw/msw-engine.js';
import { createHandlers } from '../../src/adapters/msw/msw-handlers.js';
import { createManualClock, type ManualClock } from '../../src/core/time/clock.js';
import type { DevApiOptions, Emulator } from '../../src/core/emulator.js';
import { createSeededRandom } from '../../src/core/time/random.js';
import { createEmulator } from '../../src/emulator.js';
import { DEMO_CONFIG } from '../../src/demo-config.js';
import { STRICT } from './msw-options.js';

/** An emulator reachable through one transport, on a manual clock. */
export interface Target {
  baseUrl: string;
  emulator: Emulator;
  clock: ManualClock;
  close(): Promise<void>;
}

/** What a test may vary in the emulator it gets. */
export interface TargetOptions {
  config?: unknown;
  devApi?: DevApiOptions;
}

/** A way of serving the emulator. */
export interface Transport {
  name: string;
  start(options?: TargetOptions): Promise<Target>;
}

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
