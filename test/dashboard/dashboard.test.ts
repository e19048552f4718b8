import { copyFileSync, mkdirSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnUas, waitForUrl } from '../helpers/spawn-uas.js';
import {
  axeViolations,
  hasChromium,
  openPage,
  README_SHOT,
  screenshot,
  SHOTS,
} from './dashboard-browser.js';
import { useDashboard } from './dashboard-session.js';

const PAGES = ['overview', 'buckets', 'requests', 'inbox', 'check', 'control'] as const;

const dash = useDashboard();
const AUTH = { authorization: 'Bearer uas-demo-token' };

describe.skipIf(!hasChromium)('the dashboard in Chromium', () => {
  it('renders every page from a seeded emulator with no serious axe violation, no CSP error and no other host', async () => {
    await dash.startSeeded();
    const { page, errors, foreign } = await openPage(dash.browser!, dash.url);
    for (const route of PAGES) {
      await dash.visit(page, route);
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
    await dash.startServer();
    const { page, errors } = await openPage(dash.browser!, dash.url);
    const streams: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/__uas/events') streams.push(url.search);
    });
    await dash.visit(page, 'overview');
    await expect
      .poll(() => page.getByTestId('total-requests').textContent())
      .toMatch(/^0 requests/);
    await dash.exists('email=alice@example.com&caller_id=203.0.113.7');
    await dash.exists('email=alice@example.com&caller_id=203.0.113.7');
    await expect
      .poll(() => page.getByTestId('total-requests').textContent())
      .toMatch(/^2 requests/);
    expect(await page.getByTestId('caller-allowed').textContent()).toBe('2');
    // The page holds one stream, of summaries, on every page; the Requests page reads whole
    // records from the journal, as the stream says more came.
    expect(streams).toEqual(['?requests=summary']);
    await page.getByRole('link', { name: 'Requests' }).click();
    await expect.poll(() => page.getByTestId('request-row').count()).toBe(2);
    await dash.exists('email=bob@example.com');
    await expect.poll(() => page.getByTestId('request-row').count()).toBe(3);
    expect(streams).toEqual(['?requests=summary']);
    await dash.send('/__uas/reset', {
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
    await dash.startServer();
    await dash.exists('email=bob@example.com', { 'x-caller-id': '203.0.113.9' });
    const { page } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'requests?id=1');
    const detail = page.getByTestId('request-detail');
    await detail.waitFor();
    expect(await detail.getByTestId('bucket').textContent()).toBe('client:demo');
    expect(await detail.getByTestId('caller-id').textContent()).toBe('203.0.113.9');
    expect(await detail.getByTestId('caller-id-place').textContent()).toMatch(
      /^misplaced: header x-caller-id/,
    );
    const curl = await page.locator('#curl').inputValue();
    expect(curl).toContain("-H 'x-caller-id: 203.0.113.9'");
    expect(curl).toContain(`'${dash.url}/v1/users/exists?email=bob%40example.com'`);
    await page.getByLabel('Client token for replay').fill('uas-demo-token');
    await page.getByRole('button', { name: 'Replay' }).click();
    await expect
      .poll(() => page.getByTestId('replay-result').textContent())
      .toMatch(/^Replayed: 200/);
    await expect.poll(() => page.getByTestId('request-row').count()).toBe(2);
  });

  it('shows in the inbox the code a start issued', async () => {
    await dash.startServer();
    const { page } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'inbox');
    await dash.start('alice@example.com');
    const code = (await (await fetch(`${dash.url}/__uas/codes/alice%40example.com`)).json()) as {
      code: string;
    };
    await expect.poll(() => page.getByTestId('code').first().textContent()).toBe(code.code);
    expect(await page.getByTestId('inbox').textContent()).toContain('alice@example.com');
    // The live region that says a code was copied is there, empty, before any copy.
    expect(await page.getByTestId('copied').getAttribute('role')).toBe('status');
    expect(await page.getByTestId('copied').textContent()).toBe('');
  });

  it('shows in the inbox, without a reload, a wrong code’s attempt, a verified code and one a newer start replaced', async () => {
    await dash.startServer(['--otp', 'fixed:123456']);
    const { page, errors } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'inbox');
    await dash.start('alice@example.com');
    // The inbox reads the codes again a second after traffic comes.
    const READ_AGAIN = { timeout: 5_000 };
    const rows = () =>
      page
        .getByTestId('inbox')
        .locator('tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) =>
            [...tr.querySelectorAll('td')]
              .filter((_, index) => index === 3 || index === 4)
              .map((td) => td.textContent)
              .join(' | '),
          ),
        );
    await expect
      .poll(rows, READ_AGAIN)
      .toEqual([expect.stringMatching(/^live, expires in .* \| 5$/)]);
    const verify = (code: string) =>
      dash.send('/v1/merchants/6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01/users/passwordless/verify', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: 'alice@example.com',
          verification_code: code,
          caller_id: '198.51.100.8',
        }),
      });
    expect((await verify('000000')).status).toBe(422);
    await expect
      .poll(rows, READ_AGAIN)
      .toEqual([expect.stringMatching(/^live, expires in .* \| 4$/)]);
    expect((await verify('123456')).status).toBe(200);
    await expect.poll(rows, READ_AGAIN).toEqual(['verified | 4']);
    // A second apart on the manual clock: a fixed code issued in the same millisecond is the same.
    const tick = () =>
      dash.send('/__uas/clock', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advance_ms: 1_000 }),
      });
    await tick();
    await dash.start('alice@example.com');
    await tick();
    await dash.start('alice@example.com');
    await expect
      .poll(rows, READ_AGAIN)
      .toEqual([
        expect.stringMatching(/^live, expires in .* \| 5$/),
        'dead: replaced by a newer code | 5',
        'verified | 4',
      ]);
    expect(errors).toEqual([]);
  });

  it('tells in the inbox whether a code expired by the emulator’s clock, not the browser’s', async () => {
    await dash.startServer(['--clock-start', '2020-01-01T00:00:00Z']);
    await dash.start('alice@example.com');
    const { page, errors } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'inbox');
    const state = () => page.getByTestId('inbox').locator('tbody td').nth(3).textContent();
    await expect.poll(state).toBe('live, expires in 10 min 0 s');
    // Past the read a second after the page's last traffic: nothing else makes it read again.
    await page.waitForTimeout(1_500);
    const moved = await dash.send('/__uas/clock', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms: 11 * 60_000 }),
    });
    expect(moved.status).toBe(200);
    // No traffic follows the move: the page reads a manual clock again every 2 s by itself.
    await expect.poll(state, { timeout: 6_000 }).toBe('dead: expired');
    expect(errors).toEqual([]);
  });

  it('turns a check rule from not exercised to failed when a bad client runs, its finding linking to the requests', async () => {
    await dash.startServer();
    const { page } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'check');
    const rule = page.locator('[data-rule="caller-id-wrong-place"]');
    await expect.poll(() => rule.getAttribute('data-status')).toBe('not-exercised');
    await dash.exists('email=bob@example.com', { 'x-caller-id': '203.0.113.9' });
    await expect.poll(() => rule.getAttribute('data-status'), { timeout: 10_000 }).toBe('failed');
    await rule.getByTestId('evidence-link').first().click();
    await expect.poll(() => page.url()).toContain('#/requests?id=1');
    await page.getByTestId('request-detail').waitFor();
  });

  it('escapes a direction character of traffic that a check finding quotes', async () => {
    await dash.startServer();
    const { page, errors } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'check');
    await dash.exists(`email=bob@example.com&callerId=${encodeURIComponent('\u202eevil')}`);
    const rule = page.locator('[data-rule="caller-id-wrong-place"]');
    await expect.poll(() => rule.getAttribute('data-status'), { timeout: 10_000 }).toBe('failed');
    expect(await rule.getByTestId('finding-message').textContent()).toContain('\\u202eevil');
    expect(await page.locator('main').textContent()).not.toContain('\u202e');
    expect(errors).toEqual([]);
  });

  it('escapes a direction character in a bucket the real service named behind --upstream', async () => {
    const bucket = 'caller:demo:\u202eevil';
    const upstream = createServer((_request, response) => {
      response.writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '5' });
      response.end(JSON.stringify({ type: 'about:blank', status: 429, bucket }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = upstream.address() as AddressInfo;
      await dash.startServer(['--upstream', `http://127.0.0.1:${port}`]);
      const { page, errors } = await openPage(dash.browser!, dash.url);
      await dash.visit(page, 'overview');
      await dash.exists('email=bob@example.com&caller_id=c1');
      const main = page.getByRole('main');
      const link = main.getByRole('link', { name: 'caller:demo:\\u202eevil' });
      await link.waitFor();
      expect(await main.textContent()).not.toContain('\u202e');
      await link.click();
      await expect
        .poll(() => page.getByTestId('bucket-detail').locator('h2').textContent())
        .toBe('caller:demo:\\u202eevil');
      expect(await main.textContent()).not.toContain('\u202e');
      expect(errors).toEqual([]);
    } finally {
      upstream.close();
    }
  });

  it('keeps each heading and figure of the bucket table whole beside a 256-character key', async () => {
    await dash.startServer();
    await dash.exists(`email=bob@example.com&caller_id=${'W'.repeat(256)}`);
    const { page, errors } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'buckets');
    const table = page.getByTestId('bucket-table');
    await table.getByRole('button', { name: /^caller:demo:W+$/ }).waitFor();
    // A word of a heading (Tokens) or a figure (5 / 5) split over lines draws more line boxes
    // than it has words.
    const split = await table.evaluate((element) =>
      [...element.querySelectorAll('th, td:not(:first-child)')]
        .filter((cell) => cell.querySelector('meter') === null)
        .filter((cell) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          const words = (cell.textContent ?? '').trim().split(/\s+/).length;
          return range.getClientRects().length > words;
        })
        .map((cell) => cell.textContent),
    );
    expect(split).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('fits the Requests page to the window, a phone’s too, with a long caller_id selected', async () => {
    await dash.startServer();
    await dash.exists(`email=alice@example.com&caller_id=${'W'.repeat(256)}`);
    for (const width of [375, 1280]) {
      const context = await dash.browser!.newContext({ viewport: { width, height: 700 } });
      const page = await context.newPage();
      await dash.visit(page, 'requests?id=1');
      await page.getByTestId('request-detail').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      await context.close();
    }
  });

  it('shows the server’s own error for a bad config value, and changes nothing', async () => {
    await dash.startServer();
    const before = await (await fetch(`${dash.url}/__uas/config`)).json();
    const { page } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'control');
    const burst = page.getByLabel('Caller bucket burst');
    await expect.poll(() => burst.inputValue()).toBe('5');
    await burst.fill('-1');
    await page.getByRole('button', { name: 'Apply changes' }).click();
    await expect
      .poll(() => page.getByTestId('field-error').textContent())
      .toContain('limits.caller.burst: expected a whole number from 1');
    expect(await burst.getAttribute('aria-invalid')).toBe('true');
    expect(await (await fetch(`${dash.url}/__uas/config`)).json()).toEqual(before);
  });

  it('replays a request whose path starts with two slashes to this server, not to the host it names', async () => {
    await dash.startServer();
    const { port } = new URL(dash.url);
    await new Promise<void>((resolve, reject) => {
      const request = httpRequest(
        { host: '127.0.0.1', port, path: '//evil.example/v1/users/exists', headers: AUTH },
        (response) => response.resume().on('end', resolve),
      );
      request.on('error', reject).end();
    });
    const { page, errors, foreign } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'requests?id=1');
    await page.getByLabel('Client token for replay').fill('uas-demo-token');
    // The live region that says what the replay got is there, empty, before it.
    expect(await page.getByTestId('replay-result').textContent()).toBe('');
    await page.getByRole('button', { name: 'Replay' }).click();
    await expect
      .poll(() => page.getByTestId('replay-result').textContent())
      .toMatch(/^Replayed: 404 /);
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('reads the config form again after a change of config or a reset made elsewhere, keeping a field being edited', async () => {
    await dash.startServer();
    const { page, errors } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'control');
    const caller = page.getByLabel('Caller bucket burst');
    const client = page.getByLabel('Client bucket burst');
    await expect.poll(() => caller.inputValue()).toBe('5');
    const changed = await dash.send('/__uas/config', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ limits: { caller: { burst: 1 } } }),
    });
    expect(changed.status).toBe(200);
    await expect.poll(() => caller.inputValue()).toBe('1');
    await client.fill('7'); // typed, not applied
    await dash.send('/__uas/reset', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    await page.getByTestId('notice').waitFor();
    await expect.poll(() => caller.inputValue()).toBe('5');
    expect(await client.inputValue()).toBe('7');
    expect(errors).toEqual([]);
  });

  it('asks once for the admin token, keeps it in sessionStorage only, and never puts it in a URL', async () => {
    await dash.startServer(['--admin-token', 'sekret-admin-1']);
    await dash.exists('email=alice@example.com');
    const { page } = await openPage(dash.browser!, dash.url);
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    await page.goto(`${dash.url}/__uas/ui/#/requests`);
    expect(await page.getByTestId('token-refused').count()).toBe(0);
    // A wrong token is refused, and the page says so.
    await page.getByLabel('Admin token').fill('wrong-token');
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByTestId('token-refused').waitFor();
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

  it('lets the admin token prompt go once the server is started again without --admin-token', async () => {
    await dash.startServer(['--admin-token', 'sekret-admin-2']);
    const port = new URL(dash.url).port;
    const { page } = await openPage(dash.browser!, dash.url);
    await page.goto(`${dash.url}/__uas/ui/#/requests`);
    await page.getByLabel('Admin token').waitFor();
    dash.server?.child.kill('SIGTERM');
    await dash.server?.exited;
    await dash.startServer(['--port', port]);
    await dash.exists('email=alice@example.com');
    // No reload, no token typed: the page finds the server no longer asks for one.
    await page.getByTestId('feed-status').getByText('Live').waitFor({ timeout: 10_000 });
    await expect.poll(() => page.getByTestId('request-row').count()).toBe(1);
    expect(await page.getByLabel('Admin token').count()).toBe(0);
  });

  it('renders a hostile caller_id and e-mail as text', async () => {
    await dash.startServer();
    const hostile = '<img src=x onerror="window.pwned=1">';
    await dash.exists(
      `email=${encodeURIComponent(`<b>x</b>@example.com`)}&caller_id=${encodeURIComponent(hostile)}`,
    );
    const { page, errors } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'requests?id=1');
    await page.getByTestId('request-detail').waitFor();
    expect(await page.getByTestId('caller-id').textContent()).toBe(hostile);
    expect(await page.getByTestId('request-row').first().textContent()).toContain(
      '<b>x</b>@example.com',
    );
    expect(await page.locator('main img, main b').count()).toBe(0);
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    // A right-to-left override would show the row's e-mail and bucket backwards: it is escaped.
    await dash.exists(`email=${encodeURIComponent('evil\u202emoc.elpmaxe@ecila')}`);
    await expect
      .poll(() => page.getByTestId('request-row').first().textContent())
      .toContain('evil\\u202emoc.elpmaxe@ecila');
    expect(await page.locator('main').textContent()).not.toContain('\u202e');
    expect(errors).toEqual([]);
  });

  it('says the server went away, reconnects when it is back, and starts the totals again', async () => {
    await dash.startServer();
    const port = new URL(dash.url).port;
    await dash.exists('email=alice@example.com');
    const { page } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'overview');
    await expect
      .poll(() => page.getByTestId('total-requests').textContent())
      .toMatch(/^1 request seen/);
    dash.server!.child.kill('SIGTERM');
    await dash.server!.exited;
    await expect.poll(() => page.getByTestId('feed-status').textContent()).toMatch(/reconnecting/);
    dash.server = spawnUas(['serve', '--port', port, '--clock', 'manual']);
    await waitForUrl(dash.server);
    await page.getByTestId('feed-status').getByText('Live').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('notice').textContent()).toContain('restarted');
    await expect
      .poll(() => page.getByTestId('total-requests').textContent())
      .toMatch(/^0 requests/);
  });

  it.skipIf(process.env.UAS_DASHBOARD_SCREENSHOT !== '1')(
    'writes the screenshot README shows (UAS_DASHBOARD_SCREENSHOT=1)',
    async () => {
      await dash.startServer();
      // The caller bucket holds 5 tokens: the 6th request of the same caller_id is refused.
      for (let index = 0; index < 6; index++)
        await dash.exists('email=alice@example.com&caller_id=203.0.113.7');
      await dash.exists('email=bob@example.com', { 'x-caller-id': '203.0.113.9' });
      const { page } = await openPage(dash.browser!, dash.url);
      await dash.visit(page, 'requests?id=6');
      await page.getByTestId('request-detail').waitFor();
      await page.emulateMedia({ colorScheme: 'light' });
      await screenshot(page, 'readme');
      mkdirSync(dirname(README_SHOT), { recursive: true });
      copyFileSync(`${SHOTS}readme.png`, README_SHOT);
    },
  );
});
