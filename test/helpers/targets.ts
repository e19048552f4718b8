import express from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupServer } from 'msw/node';
import { listen } from '../../src/adapters/http/http-server.js';
import {
  createMiddleware,
  problemErrorHandler,
} from '../../src/adapters/express/express-middleware.js';
import { createHandlers } from '../../src/adapters/msw/msw-handlers.js';
import { createManualClock, type ManualClock } from '../../src/core/time/clock.js';
import type { DevApiOptions, Emulator } from '../../src/core/emulator.js';
import { createSeededRandom } from '../../src/core/time/random.js';
import { createEmulator } from '../../src/emulator.js';
import { DEMO_CONFIG } from '../../src/demo-config.js';

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

async function listenOn(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
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
    name: 'msw engine over HTTP (@mswjs/http-middleware)',
    async start(options) {
      const { emulator, clock } = makeEmulator(options);
      const app = express();
      app.use(createMiddleware({ emulator, baseUrl: '' }));
      app.use(problemErrorHandler);
      const server = createServer(app);
      const baseUrl = await listenOn(server);
      return { baseUrl, emulator, clock, close: () => closeServer(server) };
    },
  },
  {
    name: 'msw setupServer in-process',
    async start(options) {
      const { emulator, clock } = makeEmulator(options);
      const baseUrl = 'http://uas.test';
      const server = setupServer(...createHandlers({ emulator, baseUrl }));
      server.listen({ onUnhandledRequest: 'error' });
      return {
        baseUrl,
        emulator,
        clock,
        close: async () => server.close(),
      };
    },
  },
];
