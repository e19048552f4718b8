import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../helpers/chromium.js';

const WORKER = fileURLToPath(
  new URL('../../node_modules/msw/lib/mockServiceWorker.js', import.meta.url),
);
const ENTRY = fileURLToPath(new URL('./page-entry.ts', import.meta.url));

let server: Server | undefined;
let origin = '';
let bundle = '';

beforeAll(async () => {
  if (!hasChromium) return;
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
  });
  bundle = result.outputFiles[0]?.text ?? '';
  const files: Record<string, [string, string]> = {
    '/': ['text/html', '<!doctype html><script type="module" src="/page.js"></script>'],
    '/page.js': ['text/javascript', bundle],
    '/mockServiceWorker.js': ['text/javascript', readFileSync(WORKER, 'utf8')],
  };
  server = createServer((req, res) => {
    const file = files[req.url ?? ''];
    if (file === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

describe('uas/msw in a browser', () => {
  it.skipIf(!hasChromium)(
    'bundles with no Node built-ins and answers through setupWorker in Chromium',
    async () => {
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        await page.goto(origin);
        await page.waitForFunction(() => (window as { uasReady?: boolean }).uasReady === true, {
          timeout: 15_000,
        });
        const result = (await page.evaluate(() =>
          (window as unknown as { runUas(): Promise<unknown> }).runUas(),
        )) as {
          answers: Array<{ status: number; body: unknown; bucket: string; retryAfter: string }>;
          recorded: number;
        };
        expect(errors).toEqual([]);
        expect(result.answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 200]);
        expect(result.answers[0]).toMatchObject({
          body: { exists: true, token_count: 2 },
          bucket: 'client:web',
        });
        expect(result.answers[3]?.retryAfter).toBe('1');
        expect(result.recorded).toBe(5);
      } finally {
        await browser.close();
      }
    },
  );
});
