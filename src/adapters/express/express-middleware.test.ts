import express from 'express';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createManualClock } from '../../core/time/clock.js';
import { DEMO_TOKEN } from '../../demo-config.js';
import { createEmulator } from '../../emulator.js';
import { destroySockets, rawRequest } from '../../../test/helpers/raw-http.js';
import { createMiddleware } from './express-middleware.js';

/** The packages a module imports, at run time or for types, following its relative imports. */
function packagesImportedBy(entry: string, seen = new Set<string>()): Set<string> {
  const packages = new Set<string>();
  if (seen.has(entry)) return packages;
  seen.add(entry);
  const source = readFileSync(entry, 'utf8');
  for (const [, specifier = ''] of source.matchAll(/(?:from|import\()\s*'([^']+)'/g)) {
    if (!specifier.startsWith('.')) packages.add(specifier);
    else
      for (const name of packagesImportedBy(
        resolve(dirname(entry), specifier.replace(/\.js$/, '.ts')),
        seen,
      ))
        packages.add(name);
  }
  return packages;
}

let server: Server | undefined;
afterEach(async () => {
  destroySockets();
  await new Promise((done) => server?.close(done) ?? done(undefined));
  server = undefined;
});

/** The middleware at /uas of an app, `express.json()` run before it when `parsedFirst`. */
async function mount(
  options: Parameters<typeof createMiddleware>[0],
  parsedFirst = false,
): Promise<string> {
  const app = express();
  if (parsedFirst) app.use(express.json());
  app.use('/uas', createMiddleware(options));
  app.use((_req, res) => res.status(418).json({ app: 'next' }));
  server = createServer(app);
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('createMiddleware', () => {
  it('needs no msw: nothing uas/express imports, for run time or for types, is msw', () => {
    const entry = fileURLToPath(new URL('./index.ts', import.meta.url));
    const imported = [...packagesImportedBy(entry)];
    expect(imported).toContain('node:http');
    expect(imported.filter((name) => name === 'msw' || name.startsWith('msw/'))).toEqual([]);
  });

  it('refuses emulator options beside an emulator, which would never reach it', () => {
    const emulator = createEmulator();
    expect(() =>
      createMiddleware({ emulator, config: { journal: { size: 'unbounded' } } } as never),
    ).toThrow(
      new TypeError(
        'createMiddleware takes either an emulator or the options to make one; config would not reach the emulator given: pass it to createEmulator',
      ),
    );
    // Its own option, the dev API's allowed hosts, goes beside an emulator.
    expect(typeof createMiddleware({ emulator, allowedHosts: ['uas.internal'] })).toBe('function');
  });

  it('answers /v1 and /__uas under its mount and hands any other path to next()', async () => {
    const base = await mount({ clock: createManualClock(0) });
    const unknown = await fetch(`${base}/uas/v1/nowhere`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('application/problem+json');
    expect((await fetch(`${base}/uas/__uas/health`)).status).toBe(200);
    const other = await fetch(`${base}/uas/elsewhere`);
    expect(other.status).toBe(418);
    expect(await other.json()).toEqual({ app: 'next' });
  });

  it('sends an answer waiting on a latency at once when the emulator is reset', async () => {
    const clock = createManualClock(0);
    const emulator = createEmulator({ clock });
    const base = await mount({ emulator });
    emulator.failNext({ latencyMs: 3_000 });
    const pending = fetch(`${base}/uas/v1/users/exists?email=alice%40example.com`, {
      headers: { authorization: `Bearer ${DEMO_TOKEN}` },
    });
    await vi.waitFor(() => expect(clock.sleepers).toBe(1));
    expect((await fetch(`${base}/uas/__uas/reset`, { method: 'POST' })).status).toBe(200);
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ exists: true, token_count: 2 });
  });

  it('names its mount path after the origin in the documents it serves, as their paths start there', async () => {
    const base = await mount({ clock: createManualClock(0) });
    for (const query of ['', '?document=dev-api']) {
      const answer = await fetch(`${base}/uas/__uas/openapi.json${query}`);
      const document = (await answer.json()) as { servers: Array<{ url: string }> };
      expect(document.servers[0]?.url, query).toBe(`${base}/uas`);
    }
  });

  it('names the address its server listens on in the document served to a request without Host', async () => {
    const base = await mount({ clock: createManualClock(0) });
    const answer = await rawRequest(
      Number(new URL(base).port),
      'GET /uas/__uas/openapi.json HTTP/1.0\r\n\r\n',
    );
    expect(answer.status).toBe(200);
    const document = JSON.parse(answer.body) as { servers: Array<{ url: string }> };
    expect(document.servers[0]?.url).toBe(`${base}/uas`);
  });

  it('answers an empty body as uas serve does when express.json() ran first, where the parser made it {}', async () => {
    const base = await mount({ clock: createManualClock(0) }, true);
    const answer = await fetch(
      `${base}/uas/v1/merchants/6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01/users/passwordless/start`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
        body: '',
      },
    );
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      type: 'urn:uas:problem:malformed-json',
      detail: 'the body is empty; send a JSON object',
    });
  });

  it('reads a compressed body that express.json() ran first inflated, as the JSON it parsed', async () => {
    const base = await mount({ clock: createManualClock(0) }, true);
    const answer = await fetch(
      `${base}/uas/v1/merchants/6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01/users/passwordless/start`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${DEMO_TOKEN}`,
          'content-type': 'application/json',
          'content-encoding': 'gzip',
        },
        body: gzipSync('{"email":"alice@example.com"}'),
      },
    );
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ sent: true });
  });
});
