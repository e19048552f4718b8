import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from './dashboard-browser.js';
import { useDashboard } from './dashboard-session.js';

const dash = useDashboard();

/** What has the focus: its tag and text, or `body` when the focus was lost. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    return element === null || element === document.body
      ? 'body'
      : `${element.tagName.toLowerCase()} ${(element.textContent ?? '').trim().slice(0, 30)}`.trim();
  });
}

describe.skipIf(!hasChromium)('the focus after an action or a live update, in Chromium', () => {
  it('stays on a row of the request list while newer requests push it down', async () => {
    await dash.startServer();
    for (let index = 0; index < 10; index++) await dash.exists('email=alice@example.com');
    const { page, errors } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'requests');
    await page.getByTestId('request-row').first().waitFor();
    await page.getByRole('region', { name: 'Requests, newest first' }).focus();
    for (let step = 0; step < 6; step++) await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toMatch(/^a #5 /);
    // 60 newer requests: row #5 goes past the rows the list renders around the view.
    for (let index = 0; index < 60; index++) await dash.exists('email=bob@example.com');
    await expect
      .poll(() => page.getByTestId('request-count').textContent())
      .toBe('70 of 70 requests');
    expect(await focused(page)).toMatch(/^a #5 /);
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toMatch(/^a #4 /);
    expect(errors).toEqual([]);
  });

  it('keeps it on the page when the admin token is given, in the field when it is refused, on the pager’s ends and past a dismissed notice', async () => {
    await dash.startServer(['--admin-token', 'sekret-admin-1']);
    for (let index = 0; index < 60; index++)
      await dash.exists(`email=alice@example.com&caller_id=203.0.113.${index}`);
    const { page, errors } = await openPage(dash.browser!, dash.url);
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${dash.url}/__uas/ui/#/buckets`);
    await page.getByLabel('Admin token').focus();
    // Enter on the empty field says what is missing, and keeps the focus in it.
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByTestId('token-empty').textContent())
      .toBe('Type the admin token first: the field is empty.');
    expect(await focused(page)).toBe('input');
    await page.keyboard.type('wrong-token');
    await page.keyboard.press('Enter');
    await page.getByTestId('token-refused').waitFor();
    expect(await focused(page)).toBe('input');
    await page.keyboard.type('sekret-admin-1');
    await page.keyboard.press('Enter');
    await page.getByTestId('feed-status').getByText('Live').waitFor();
    expect(await focused(page)).toMatch(/^main Buckets/);

    // 61 buckets, 50 a page: Next takes the last page, Previous the first; neither drops the focus.
    const next = page.getByRole('button', { name: 'Next page' });
    await next.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => next.getAttribute('aria-disabled')).toBe('true');
    expect(await focused(page)).toBe('button Next page');
    await page.keyboard.press('Enter'); // on the last page, it does nothing
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    const previous = page.getByRole('button', { name: 'Previous page' });
    await expect.poll(() => previous.getAttribute('aria-disabled')).toBe('true');
    expect(await focused(page)).toBe('button Previous page');

    // A reset says so in a notice; dismissing it leaves the focus on the page.
    await dash.send('/__uas/reset', {
      method: 'POST',
      headers: { authorization: 'Bearer sekret-admin-1', 'content-type': 'application/json' },
      body: '{}',
    });
    const dismiss = page.getByTestId('notice').getByRole('button', { name: 'Dismiss' });
    await dismiss.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('notice').waitFor({ state: 'detached' });
    expect(await focused(page)).toMatch(/^main Buckets/);
    expect(errors).toEqual([]);
  });

  it('holds the bucket table while a bucket has the focus, which new buckets would push off the page', async () => {
    await dash.startServer(['--caller-burst', '1']);
    const callers = (from: number, to: number, requests: number) =>
      Promise.all(
        Array.from({ length: to - from }, async (_, index) => {
          for (let sent = 0; sent < requests; sent++)
            await dash.exists(`email=alice@example.com&caller_id=203.0.113.${from + index}`);
        }),
      );
    // 50 buckets: 49 refused twice, the last (.49) once, so "most refused" puts it last.
    await callers(0, 49, 3);
    await callers(49, 50, 2);
    const { page, errors } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'buckets');
    await page.getByLabel('Sort').selectOption('rejected');
    const last = page.getByRole('button', { name: 'caller:demo:203.0.113.49' });
    await expect
      .poll(() => page.getByTestId('bucket-table').locator('tbody tr').last().textContent())
      .toContain('203.0.113.49');
    await last.focus();
    await page.keyboard.press('Shift+Tab'); // to the row above: still in the table
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button caller:demo:203.0.113.49');
    await page.getByTestId('buckets-held').waitFor();
    // Ten buckets refused more: page one would now end ten rows before .49.
    await callers(50, 60, 4);
    await page.waitForTimeout(2_500); // more than the page's second between two reads
    expect(await focused(page)).toBe('button caller:demo:203.0.113.49');
    await page.getByText(/^50 buckets; showing 1–50/).waitFor();
    // The focus leaves the table: it reads again, and the held note goes.
    await page.getByLabel('Search keys').focus();
    await page.getByText(/^60 buckets; showing 1–50/).waitFor();
    await page.getByTestId('buckets-held').waitFor({ state: 'detached' });
    expect(await last.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('ends the hold at a reset of the emulator, whose buckets are gone, and gives the focus to the page', async () => {
    await dash.startServer();
    for (let index = 0; index < 3; index++)
      await dash.exists(`email=alice@example.com&caller_id=203.0.113.${index}`);
    const { page, errors } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'buckets');
    const row = page.getByRole('button', { name: 'caller:demo:203.0.113.1' });
    await row.focus();
    await page.getByTestId('buckets-held').waitFor();
    await dash.send('/__uas/reset', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    await page.getByTestId('buckets-held').waitFor({ state: 'detached' });
    await page.getByText(/^No buckets/).waitFor();
    expect(await focused(page)).toMatch(/^main Buckets/);
    // Live again: a new bucket shows within the page's second between reads.
    await dash.exists('email=alice@example.com&caller_id=203.0.113.9');
    await page.getByRole('button', { name: 'caller:demo:203.0.113.9' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('holds the bucket table against a read that was under way when a bucket took the focus', async () => {
    await dash.startServer();
    for (let index = 0; index < 50; index++)
      await dash.exists(`email=alice@example.com&caller_id=203.0.113.${index}`);
    const { page, errors } = await openPage(dash.browser!, dash.url);
    // Once armed, each read of the bucket list is answered only when the test lets them go: the
    // page reads at most once a second while traffic comes, and a second read answered at once
    // would reorder the rows before the focus is taken.
    let armed = false;
    let arrived = () => {};
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    let letGo = () => {};
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    await page.route('**/__uas/buckets?*', async (route) => {
      if (!armed) return route.continue();
      const response = await route.fetch();
      arrived();
      await gate;
      await route.fulfill({ response });
    });
    await dash.visit(page, 'buckets');
    // The read by key is answered before the traffic below: emptiest first, the 50 equal buckets
    // are in key order too, so the last row alone cannot tell the two reads apart, and a read by
    // key still on its way could count some of the buckets the traffic below makes.
    await Promise.all([
      page.waitForResponse((response) => response.url().includes('sort=key')),
      page.getByLabel('Sort').selectOption('key'),
    ]);
    // By key, .9 is the last of the 50 rows; five buckets that sort first push it off page one.
    const last = page.getByRole('button', { name: 'caller:demo:203.0.113.9', exact: true });
    await expect
      .poll(() => page.getByTestId('bucket-table').locator('tbody tr').last().textContent())
      .toContain('203.0.113.9');
    armed = true;
    for (let index = 0; index < 5; index++)
      await dash.exists(`email=alice@example.com&caller_id=0-first-${index}`);
    await arrival; // the page's read after that traffic is under way
    await last.focus();
    await page.getByTestId('buckets-held').waitFor();
    armed = false;
    letGo();
    await page.waitForTimeout(1_000);
    expect(await focused(page)).toBe('button caller:demo:203.0.113.9');
    await page.getByText(/^50 buckets; showing 1–50/).waitFor();
    // The focus leaves the table: it reads again.
    await page.getByLabel('Search keys').focus();
    await page.getByText(/^55 buckets; showing 1–50/).waitFor();
    await page.getByTestId('buckets-held').waitFor({ state: 'detached' });
    expect(await last.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('keeps it on the page when a user removed elsewhere or a reset takes away the row that had it', async () => {
    await dash.startServer();
    await dash.start('carol@example.com');
    await dash.start('alice@example.com');
    const { page, errors } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'inbox');
    // A script removes carol while her code's Copy button has the focus: its row goes.
    await page.getByRole('button', { name: 'Copy the code for carol@example.com' }).focus();
    await dash.send('/__uas/users/carol%40example.com', { method: 'DELETE' });
    await expect.poll(() => page.getByTestId('inbox').locator('tbody tr').count()).toBe(1);
    expect(await focused(page)).toMatch(/^main Sign-in inbox/);

    // A row the user had left (a click on the page's background) takes no focus with it.
    await dash.start('bob@example.com');
    await page.getByRole('button', { name: 'Copy the code for bob@example.com' }).focus();
    await page.mouse.click(5, 600); // the background, below the table
    expect(await focused(page)).toBe('body');
    await dash.send('/__uas/users/bob%40example.com', { method: 'DELETE' });
    await expect.poll(() => page.getByTestId('inbox').locator('tbody tr').count()).toBe(1);
    expect(await focused(page)).toBe('body');

    // A reset empties the request list under a focused row: the list keeps the focus.
    await page.getByRole('link', { name: 'Requests' }).click();
    const list = page.getByRole('region', { name: 'Requests, newest first' });
    await page.getByTestId('request-row').first().waitFor();
    await list.focus();
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toMatch(/^a #\d+ /);
    await dash.send('/__uas/reset', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    await page.getByTestId('notice').waitFor();
    await expect.poll(() => page.getByTestId('request-row').count()).toBe(0);
    expect(await list.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('draws the Overview chart to the window’s width when the window narrows', async () => {
    await dash.startServer();
    const { page, errors } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'overview');
    await page.locator('.uplot').waitFor();
    await page.setViewportSize({ width: 390, height: 860 });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(390);
    expect(errors).toEqual([]);
  });
});
