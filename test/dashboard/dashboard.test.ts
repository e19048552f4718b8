import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawnUas, waitForUrl, type UasProcess } from '../helpers/spawn-uas.js';
import {
  axeViolations,
  hasChromium,
  launchChromium,
  openPage,
  README_SHOT,
  screenshot,
  SHOTS,
} from './dashboard-browser.js';

const MERCHANT = '6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01';
const AUTH = { authorization: 'Bearer uas-demo-token' };
const PAGES = ['overview', 'buckets', 'requests', 'inbox', 'check', 'control'] as const;

let browser: Browser | undefined;
let server: UasProcess | undefined;
let url = '';

/** Starts `uas serve` on a manual clock (no bucket refills during a test). */
async function startServer(extra: string[] = []): Promise<void> {
  server = spawnUas(['serve', '--port', '0', '--clock', 'manual', ...extra]);
  url = await waitForUrl(server);
}

async function send(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(`${url}${path}`, {
    ...init,
    headers: { ...AUTH, ...(init.headers as Record<string, string>) },
  });
  await response.arrayBuffer();
  return response;
}

const exists = (query: string, headers: Record<string, string> = {}) =>
  send(`/v1/users/exists?${query}`, { headers });

const start = (email: string) =>
  send(`/v1/merchants/${MERCHANT}/users/passwordless/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, caller_id: '198.51.100.7' }),
  });

async function visit(page: Page, route: string): Promise<void> {
  await page.goto(`${url}/__uas/ui/#/${route}`);
  await page.getByTestId('feed-status').getByText('Live').waitFor();
}

beforeAll(async () => {
  if (hasChromium) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  server = undefined;
});

describe.skipIf(!hasChromium)('the dashboard in Chromium', () => {
  it('renders every page from a seeded emulator with no serious axe violation, no CSP error and no other host', async () => {
    await startServer();
    await exists('email=alice@example.com&caller_id=203.0.113.7');
    await exists('email=bob@example.com', { 'x-caller-id': '203.0.113.9' });
    await start('carol@example.com');
    const { page, errors, foreign } = await openPage(browser!, url);
    for (const route of PAGES) {
      await visit(page, route);
      await page.getByRole('heading', { level: 1 }).waitFor();
      if (route === 'requests') await page.getByTestId('request-row').first().waitFor();
      if (route === 'check') await page.getByTestId('rules').waitFor();
      if (route === 'inbox') await page.getByTestId('inbox').waitFor();
      if (route === 'buckets')
        await page.getByTestId('bucket-table').getByRole('button').first().waitFor();
      expect(await axeViolations(page), route).toEqual([]);
      await screenshot(page, route);
    }
    expect(await page.getByTestId('total-requests').count()).toBe(0); // the last page is Control
    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
  }, 60_000);

  it('shows new traffic live, without reload, and says once that a reset starts the totals again', async () => {
    await startServer();
    const { page, errors } = await openPage(browser!, url);
    await visit(page, 'overview');
    await expect
      .poll(() => page.getByTestId('total-requests').textContent())
      .toMatch(/^0 requests/);
    await exists('email=alice@example.com&caller_id=203.0.113.7');
    await exists('email=alice@example.com&caller_id=203.0.113.7');
    await expect
      .poll(() => page.getByTestId('total-requests').textContent())
      .toMatch(/^2 requests/);
    expect(await page.getByTestId('caller-allowed').textContent()).toBe('2');
    await page.getByRole('link', { name: 'Requests' }).click();
    await expect.poll(() => page.getByTestId('request-row').count()).toBe(2);
    await exists('email=bob@example.com');
    await expect.poll(() => page.getByTestId('request-row').count()).toBe(3);
    await send('/__uas/reset', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    await expect.poll(() => page.getByTestId('request-row').count()).toBe(0);
    await expect(page.getByTestId('notice').textContent()).resolves.toContain(
      'reset: totals start again',
    );
    expect(await page.getByTestId('notice').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('inspects a request whose caller_id came in a header: the client bucket, and the header named as misplaced', async () => {
    await startServer();
    await exists('email=bob@example.com', { 'x-caller-id': '203.0.113.9' });
    const { page } = await openPage(browser!, url);
    await visit(page, 'requests?id=1');
    const detail = page.getByTestId('request-detail');
    await detail.waitFor();
    expect(await detail.getByTestId('bucket').textContent()).toBe('client:demo');
    expect(await detail.getByTestId('caller-id').textContent()).toBe('203.0.113.9');
    expect(await detail.getByTestId('caller-id-place').textContent()).toMatch(
      /^misplaced: header x-caller-id/,
    );
    const curl = await page.locator('#curl').inputValue();
    expect(curl).toContain("-H 'x-caller-id: 203.0.113.9'");
    expect(curl).toContain(`'${url}/v1/users/exists?email=bob%40example.com'`);
    await page.getByLabel('Client token for replay').fill('uas-demo-token');
    await page.getByRole('button', { name: 'Replay' }).click();
    await expect
      .poll(() => page.getByTestId('replay-result').textContent())
      .toMatch(/^Replayed: 200/);
    await expect.poll(() => page.getByTestId('request-row').count()).toBe(2);
  });

  it('shows in the inbox the code a start issued', async () => {
    await startServer();
    const { page } = await openPage(browser!, url);
    await visit(page, 'inbox');
    await start('alice@example.com');
    const code = (await (await fetch(`${url}/__uas/codes/alice%40example.com`)).json()) as {
      code: string;
    };
    await expect.poll(() => page.getByTestId('code').first().textContent()).toBe(code.code);
    expect(await page.getByTestId('inbox').textContent()).toContain('alice@example.com');
  });

  it('turns a check rule from not exercised to failed when a bad client runs, its finding linking to the requests', async () => {
    await startServer();
    const { page } = await openPage(browser!, url);
    await visit(page, 'check');
    const rule = page.locator('[data-rule="caller-id-wrong-place"]');
    await expect.poll(() => rule.getAttribute('data-status')).toBe('not-exercised');
    await exists('email=bob@example.com', { 'x-caller-id': '203.0.113.9' });
    await expect.poll(() => rule.getAttribute('data-status'), { timeout: 10_000 }).toBe('failed');
    await rule.getByTestId('evidence-link').first().click();
    await expect.poll(() => page.url()).toContain('#/requests?id=1');
    await page.getByTestId('request-detail').waitFor();
  });

  it('shows the server’s own error for a bad config value, and changes nothing', async () => {
    await startServer();
    const before = await (await fetch(`${url}/__uas/config`)).json();
    const { page } = await openPage(browser!, url);
    await visit(page, 'control');
    const burst = page.getByLabel('Caller bucket burst');
    await expect.poll(() => burst.inputValue()).toBe('5');
    await burst.fill('-1');
    await page.getByRole('button', { name: 'Apply changes' }).click();
    await expect
      .poll(() => page.getByTestId('field-error').textContent())
      .toContain('limits.caller.burst: expected a whole number from 1');
    expect(await burst.getAttribute('aria-invalid')).toBe('true');
    expect(await (await fetch(`${url}/__uas/config`)).json()).toEqual(before);
  });

  it('asks once for the admin token, keeps it in sessionStorage only, and never puts it in a URL', async () => {
    await startServer(['--admin-token', 'sekret-admin-1']);
    await exists('email=alice@example.com');
    const { page } = await openPage(browser!, url);
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    await page.goto(`${url}/__uas/ui/#/requests`);
    await page.getByLabel('Admin token').fill('sekret-admin-1');
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByTestId('feed-status').getByText('Live').waitFor();
    await expect.poll(() => page.getByTestId('request-row').count()).toBe(1);
    expect(await page.evaluate(() => sessionStorage.getItem('uas.adminToken'))).toBe(
      'sekret-admin-1',
    );
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(urls.filter((each) => each.includes('sekret'))).toEqual([]);
    await page.reload();
    await page.getByTestId('feed-status').getByText('Live').waitFor();
    expect(await page.getByLabel('Admin token').count()).toBe(0);
  });

  it('renders a hostile caller_id and e-mail as text', async () => {
    await startServer();
    const hostile = '<img src=x onerror="window.pwned=1">';
    await exists(
      `email=${encodeURIComponent(`<b>x</b>@example.com`)}&caller_id=${encodeURIComponent(hostile)}`,
    );
    const { page, errors } = await openPage(browser!, url);
    await visit(page, 'requests?id=1');
    await page.getByTestId('request-detail').waitFor();
    expect(await page.getByTestId('caller-id').textContent()).toBe(hostile);
    expect(await page.getByTestId('request-row').first().textContent()).toContain(
      '<b>x</b>@example.com',
    );
    expect(await page.locator('main img, main b').count()).toBe(0);
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    expect(errors).toEqual([]);
  });

  it('says the server went away, reconnects when it is back, and starts the totals again', async () => {
    await startServer();
    const port = new URL(url).port;
    await exists('email=alice@example.com');
    const { page } = await openPage(browser!, url);
    await visit(page, 'overview');
    await expect
      .poll(() => page.getByTestId('total-requests').textContent())
      .toMatch(/^1 requests/);
    server!.child.kill('SIGTERM');
    await server!.exited;
    await expect.poll(() => page.getByTestId('feed-status').textContent()).toMatch(/reconnecting/);
    server = spawnUas(['serve', '--port', port, '--clock', 'manual']);
    await waitForUrl(server);
    await page.getByTestId('feed-status').getByText('Live').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('notice').textContent()).toContain('restarted');
    await expect
      .poll(() => page.getByTestId('total-requests').textContent())
      .toMatch(/^0 requests/);
  });

  it.skipIf(process.env.UAS_DASHBOARD_SCREENSHOT !== '1')(
    'writes the screenshot README shows (UAS_DASHBOARD_SCREENSHOT=1)',
    async () => {
      await startServer();
      // The caller bucket holds 5 tokens: the 6th request of the same caller_id is refused.
      for (let index = 0; index < 6; index++)
        await exists('email=alice@example.com&caller_id=203.0.113.7');
      await exists('email=bob@example.com', { 'x-caller-id': '203.0.113.9' });
      const { page } = await openPage(browser!, url);
      await visit(page, 'requests?id=6');
      await page.getByTestId('request-detail').waitFor();
      await page.emulateMedia({ colorScheme: 'light' });
      await screenshot(page, 'readme');
      mkdirSync(dirname(README_SHOT), { recursive: true });
      copyFileSync(`${SHOTS}readme.png`, README_SHOT);
    },
  );
});
