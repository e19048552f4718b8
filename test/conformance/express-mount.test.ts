import express from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMiddleware } from '../../src/adapters/express/express-middleware.js';
import { createManualClock } from '../../src/core/time/clock.js';
import { createSeededRandom } from '../../src/core/time/random.js';
import { DEMO_CONFIG, DEMO_TOKEN } from '../../src/demo-config.js';
import { createEmulator } from '../../src/emulator.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

describe('uas/express mounted in an existing app', () => {
  it('answers under its mount path and leaves the app its own routes', async () => {
    const emulator = createEmulator({
      config: DEMO_CONFIG,
      clock: createManualClock(0),
      random: createSeededRandom(1),
    });
    const app = express();
    app.get('/health', (_req, res) => res.json({ app: 'ok' }));
    app.use('/uas', createMiddleware({ emulator }));
    server = createServer(app);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const exists = await fetch(`${base}/uas/v1/users/exists?email=alice%40example.com`, {
      headers: { authorization: `Bearer ${DEMO_TOKEN}` },
    });
    expect(exists.status).toBe(200);
    expect(await exists.json()).toEqual({ exists: true, token_count: 2 });
    expect(exists.headers.get('uas-bucket')).toBe('client:demo');
    const dev = await fetch(`${base}/uas/__uas/buckets`);
    expect((await dev.json()).total).toBe(1);
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ app: 'ok' });
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
  });
});
