import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_CONFIG } from '../../src/demo-config.js';
import { createApi } from '../helpers/api.js';
import { spawnUas, waitForUrl, type UasProcess } from '../helpers/spawn-uas.js';
import { tempDir } from '../helpers/temp-dir.js';

const SECRET = 'sk_live_do-not-log-this-token';
const config = {
  ...DEMO_CONFIG,
  clients: [{ id: 'shop', token: SECRET, merchants: ['11111111-2222-4333-8444-555555555555'] }],
};

let uas: UasProcess | undefined;
afterEach(async () => {
  if (uas && uas.child.exitCode === null) {
    uas.child.kill('SIGKILL');
    await uas.exited;
  }
  uas = undefined;
});

async function serve(args: string[]) {
  const dir = tempDir('uas-exposure-');
  const file = join(dir, 'uas.json');
  writeFileSync(file, JSON.stringify(config));
  uas = spawnUas(['serve', '--port', '0', '--config', file, ...args]);
  return waitForUrl(uas);
}

describe('exposure', () => {
  it.each(['pretty', 'json'])(
    'never writes an access token to the %s log, and shows codes only in the log and the dev API',
    async (mode) => {
      const url = await serve(['--log', mode]);
      const api = createApi(url, SECRET);
      await api.exists('email=alice%40example.com');
      await createApi(url, `${SECRET}-wrong`).exists('email=alice%40example.com');
      const started = await api.start(
        { email: 'alice@example.com' },
        { merchant: '11111111-2222-4333-8444-555555555555' },
      );
      const code = ((await api.dev('/codes/alice%40example.com')).body.code as string) ?? '';
      expect(code).toMatch(/^\d{6}$/);
      const verified = await api.verify(
        { email: 'alice@example.com', verification_code: code },
        { merchant: '11111111-2222-4333-8444-555555555555' },
      );
      expect(started.text).not.toContain(code);
      expect(verified.text).not.toContain(code);
      await uas!.waitFor(new RegExp(code));
      await uas!.waitFor(/verify/);
      expect(uas!.stdout()).not.toContain(SECRET);
      expect(uas!.stdout()).not.toContain(SECRET.slice(4));
      const journal = JSON.stringify((await api.dev('/journal')).body);
      const configShown = JSON.stringify((await api.dev('/config')).body);
      expect(journal).not.toContain(SECRET);
      expect(configShown).not.toContain(SECRET);
    },
  );

  it('keeps no token a client sent where it does not belong (query, body, caller_id, headers)', async () => {
    const url = await serve(['--log', 'json', '--admin-token', 'admin-secret-42']);
    const api = createApi(url, SECRET);
    await api.exists(`email=alice%40example.com&access_token=${SECRET}`);
    await api.exists(`email=alice%40example.com&caller_id=${SECRET}`, {
      headers: { 'user-agent': `bot ${SECRET}`, 'x-caller-id': 'admin-secret-42' },
    });
    // As a name too: of a query parameter, of a field nested in the body.
    await api.exists(`email=alice%40example.com&${SECRET}`);
    await api.start(
      { email: 'alice@example.com', token: SECRET, nested: { [SECRET]: [SECRET] } },
      { merchant: '11111111-2222-4333-8444-555555555555' },
    );
    await uas!.waitFor(/passwordless\/start/);
    const journal = JSON.stringify(
      (await api.dev('/journal', { headers: { authorization: 'Bearer admin-secret-42' } })).body,
    );
    expect(journal).toContain('access_token');
    for (const text of [uas!.stdout(), journal]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('admin-secret-42');
    }
  });

  it('requires the admin token on the dev API when one is set', async () => {
    const url = await serve(['--admin-token', 'admin-secret-42', '--log', 'off']);
    expect((await fetch(`${url}/__uas/buckets`)).status).toBe(401);
    expect(
      (
        await fetch(`${url}/__uas/buckets`, {
          headers: { authorization: 'Bearer admin-secret-42' },
        })
      ).status,
    ).toBe(200);
    expect(uas!.stdout()).toContain('dev API   http');
    expect(uas!.stdout()).toContain('(admin token required)');
  });
});
