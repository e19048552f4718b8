import { build } from 'esbuild';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnUas, waitForUrl, type UasProcess } from '../helpers/spawn-uas.js';
import { tempDir } from '../helpers/temp-dir.js';

let server: UasProcess | undefined;

afterEach(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  server = undefined;
});

async function serve(args: string[] = [], env: Record<string, string> = {}): Promise<string> {
  server = spawnUas(['serve', '--port', '0', ...args], env);
  return waitForUrl(server);
}

/** A GET with the headers given as they are (fetch would not send another Host). */
function get(
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('uas serve and the dashboard', () => {
  it('serves the page with a strict CSP, revalidated by ETag, and its hashed assets as immutable', async () => {
    const url = await serve();
    expect(server!.stdout()).toContain(`dashboard ${url}/__uas/ui/`);
    const page = await get(`${url}/__uas/ui/`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['cache-control']).toBe('no-cache');
    const html = page.body.toString();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(html).not.toMatch(/https?:\/\//);
    const again = await get(`${url}/__uas/ui/`, { 'if-none-match': String(page.headers.etag) });
    expect(again.status).toBe(304);
    const script = /src="(assets\/app-[A-Z0-9]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await get(`${url}/__uas/ui/${script}`, { 'accept-encoding': 'gzip' });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['content-encoding']).toBe('gzip');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get(`${url}/__uas/ui`)).headers.location).toBe('/__uas/ui/');
    expect((await get(`${url}/__uas/ui/assets/nothing.js`)).status).toBe(404);
    expect((await get(`${url}/__uas/ui/`, {}, 'DELETE')).status).toBe(405);
  });

  it('refuses the dashboard to a Host that is not a loopback name, as the dev API does', async () => {
    const url = await serve();
    const answer = await get(`${url}/__uas/ui/`, { host: 'evil.example:4010' });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body.toString()).type).toContain('host-not-allowed');
  });

  it('serves the page without the admin token (it holds no data) while the dev API still wants it', async () => {
    const url = await serve(['--admin-token', 'sekret-admin-1']);
    expect((await get(`${url}/__uas/ui/`)).status).toBe(200);
    expect((await get(`${url}/__uas/requests`)).status).toBe(401);
  });

  it('answers 404 at /__uas/ui/ with --no-ui, and says nothing of it in the banner', async () => {
    const url = await serve(['--no-ui']);
    expect(server!.stdout()).not.toMatch(/^ +dashboard /m);
    expect((await get(`${url}/__uas/ui/`)).status).toBe(404);
  });

  it('opens the dashboard with --open through $BROWSER, and says in one line when it cannot', async () => {
    const dir = tempDir('uas-open-');
    const opener = join(dir, 'browser.sh');
    const opened = join(dir, 'opened.txt');
    writeFileSync(opener, `#!/bin/sh\necho "$1" > '${opened}'\n`);
    chmodSync(opener, 0o755);
    const url = await serve(['--open'], { BROWSER: opener });
    await expect.poll(() => readFileSafe(opened)).toBe(`${url}/__uas/ui/\n`);
    server!.child.kill('SIGTERM');
    await server!.exited;
    await serve(['--open'], { BROWSER: join(dir, 'no-such-browser') });
    await server!.waitFor(
      /could not open a browser \(.*no-such-browser: ENOENT\); open http:\S+\/__uas\/ui\/ yourself/,
    );
  });

  it('adds nothing of the dashboard to the uas/msw browser bundle', async () => {
    const entry = fileURLToPath(new URL('../../dist/adapters/msw/index.js', import.meta.url));
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      external: ['msw', 'msw/*'],
    });
    const text = result.outputFiles[0]?.text ?? '';
    expect(text).not.toContain('__uas/ui');
    expect(text).not.toContain('content-security-policy');
  });
});

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
