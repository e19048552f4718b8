import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { spawnUas, waitForUrl, type UasProcess } from '../helpers/spawn-uas.js';
import { hasChromium, launchChromium } from './dashboard-browser.js';

/** The demo's merchant and client token. */
const MERCHANT = '6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01';
const AUTH = { authorization: 'Bearer uas-demo-token' };

/**
 * Chromium for a file of dashboard tests, and the `uas serve` each test starts (stopped after
 * it), with the calls the tests send it.
 */
export function useDashboard() {
  const session = {
    browser: undefined as Browser | undefined,
    server: undefined as UasProcess | undefined,
    url: '',
    /** Starts `uas serve` on a manual clock (no bucket refills during a test). */
    async startServer(extra: string[] = []): Promise<void> {
      session.server = spawnUas(['serve', '--port', '0', '--clock', 'manual', ...extra]);
      session.url = await waitForUrl(session.server);
    },
    async send(path: string, init: RequestInit = {}): Promise<Response> {
      const response = await fetch(`${session.url}${path}`, {
        ...init,
        headers: { ...AUTH, ...(init.headers as Record<string, string>) },
      });
      await response.arrayBuffer();
      return response;
    },
    exists: (query: string, headers: Record<string, string> = {}) =>
      session.send(`/v1/users/exists?${query}`, { headers }),
    start: (email: string) =>
      session.send(`/v1/merchants/${MERCHANT}/users/passwordless/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, caller_id: '198.51.100.7' }),
      }),
    /**
     * Starts `uas serve` with traffic on every page: a caller bucket (alice's), a caller_id in a
     * header (bob's, misplaced: the client bucket) and a code (carol's).
     */
    async startSeeded(): Promise<void> {
      await session.startServer();
      await session.exists('email=alice@example.com&caller_id=203.0.113.7');
      await session.exists('email=bob@example.com', { 'x-caller-id': '203.0.113.9' });
      await session.start('carol@example.com');
    },
    /** Opens a page of the dashboard and waits until its event stream is live. */
    async visit(page: Page, route: string): Promise<void> {
      await page.goto(`${session.url}/__uas/ui/#/${route}`);
      await page.getByTestId('feed-status').getByText('Live').waitFor();
    },
  };
  beforeAll(async () => {
    if (hasChromium) session.browser = await launchChromium();
  });
  afterAll(async () => {
    await session.browser?.close();
  });
  afterEach(async () => {
    session.server?.child.kill('SIGTERM');
    await session.server?.exited;
    session.server = undefined;
  });
  return session;
}
