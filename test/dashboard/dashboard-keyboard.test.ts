import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium } from './dashboard-browser.js';
import { useDashboard } from './dashboard-session.js';

const dash = useDashboard();

/** What the focused element shows of its focus: a ring that is drawn, and not cut off. */
interface FocusState {
  what: string;
  onBody: boolean;
  /** It matches :focus-visible, with an outline or a box-shadow drawn. */
  ring: boolean;
  /** The element or an ancestor that clips the outline (overflow other than visible), if any. */
  clippedBy: string | undefined;
}

function focusState(page: Page): Promise<FocusState> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    const describe = (node: Element) =>
      `${node.tagName.toLowerCase()}${node.className === '' ? '' : `.${String(node.className).replace(/ /g, '.')}`}`;
    if (element === null || element === document.body)
      return { what: 'body', onBody: true, ring: false, clippedBy: undefined };
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const ring = element.matches(':focus-visible') && (outline || style.boxShadow !== 'none');
    // An outline is drawn from its offset outwards: a negative offset draws it inside the box.
    const reach = outline
      ? Math.max(0, parseFloat(style.outlineWidth) + (parseFloat(style.outlineOffset) || 0))
      : 0;
    const box = element.getBoundingClientRect();
    let clippedBy: string | undefined;
    for (let node = element.parentElement; node !== null; node = node.parentElement) {
      const around = getComputedStyle(node);
      if (around.overflowX === 'visible' && around.overflowY === 'visible') continue;
      if (node === document.documentElement || node === document.body) continue;
      const edge = node.getBoundingClientRect();
      if (
        box.left - reach < edge.left - 0.5 ||
        box.top - reach < edge.top - 0.5 ||
        box.right + reach > edge.right + 0.5 ||
        box.bottom + reach > edge.bottom + 0.5
      ) {
        clippedBy = describe(node);
        break;
      }
    }
    const name = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim();
    return {
      what: `${describe(element)} "${name.slice(0, 40)}"`,
      onBody: false,
      ring,
      clippedBy,
    };
  });
}

/**
 * Presses Tab (Shift+Tab with `back`) until `target` has the focus, at most `max` times, and
 * holds every element the focus passes through to a visible focus ring.
 */
async function tabTo(page: Page, target: Locator, options: { back?: boolean; max?: number } = {}) {
  await target.waitFor();
  const passed: string[] = [];
  for (let step = 0; step < (options.max ?? 80); step++) {
    await page.keyboard.press(options.back === true ? 'Shift+Tab' : 'Tab');
    const focus = await focusState(page);
    if (focus.onBody) continue;
    passed.push(focus.what);
    expect(focus.ring, `the focus on ${focus.what} is visible`).toBe(true);
    expect(focus.clippedBy, `the focus ring of ${focus.what} is not cut off`).toBeUndefined();
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${String(target)}; it passed ${passed.join(', ')}`);
}

/** Tabs back to a link of the navigation and follows it with Enter. */
async function goTo(page: Page, title: string, hash: string): Promise<void> {
  await tabTo(page, page.getByRole('navigation').getByRole('link', { name: title }), {
    back: true,
  });
  await page.keyboard.press('Enter');
  await expect.poll(() => page.url()).toContain(hash);
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(title);
}

describe.skipIf(!hasChromium)('the dashboard with the keyboard only, in Chromium', () => {
  it('reaches every page from the navigation and operates a control on each, the focus always visible', async () => {
    await dash.startSeeded();
    const context = await dash.browser!.newContext({
      viewport: { width: 1280, height: 860 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await dash.visit(page, 'overview');
    const main = page.getByRole('main');

    // Overview: the first Tab shows the skip link; a busiest bucket opens it on Buckets.
    await page.keyboard.press('Tab');
    expect((await focusState(page)).what).toContain('Skip to content');
    await tabTo(page, main.getByRole('link', { name: 'caller:demo:203.0.113.7' }));
    await page.keyboard.press('Enter');
    await expect.poll(() => page.url()).toContain('#/buckets?');
    await main.getByTestId('bucket-detail').waitFor();

    // Buckets: order them by key, and open one.
    await goTo(page, 'Buckets', '#/buckets');
    await tabTo(page, main.getByLabel('Sort'));
    await page.keyboard.press('End');
    await expect.poll(() => main.getByLabel('Sort').inputValue()).toBe('key');
    const client = main.getByRole('button', { name: 'client:demo', exact: true });
    await tabTo(page, client);
    await page.keyboard.press('Enter');
    await expect.poll(() => client.getAttribute('aria-expanded')).toBe('true');

    // Requests: the list is one stop of Tab however long; the arrow keys, Home and End pick a
    // request, Enter opens its detail, and the next Tab is in the detail, past the other rows.
    await goTo(page, 'Requests', '#/requests');
    await tabTo(page, main.getByRole('region', { name: 'Requests, newest first' }));
    await page.keyboard.press('ArrowDown');
    expect((await focusState(page)).what).toContain('"#3 ');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.url()).toContain('#/requests?id=3');
    await main.getByTestId('request-detail').waitFor();
    await page.keyboard.press('Tab');
    expect((await focusState(page)).what).toContain('See bucket caller:demo:198.51.100.7');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('End');
    const oldest = await focusState(page);
    expect(oldest.what).toContain('"#1 ');
    expect(oldest.ring && oldest.clippedBy === undefined).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.url()).toContain('#/requests?id=1');
    await main.getByTestId('request-detail').waitFor();

    // Sign-in inbox: copy a code.
    await goTo(page, 'Sign-in inbox', '#/inbox');
    await tabTo(page, main.getByRole('button', { name: 'Copy the code for carol@example.com' }));
    await page.keyboard.press('Space');
    await expect
      .poll(() => main.getByRole('status').textContent())
      .toBe('Copied the code for carol@example.com.');
    const code = await main.getByTestId('code').first().textContent();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);

    // Integration check: follow a finding's evidence to its request.
    await goTo(page, 'Integration check', '#/check');
    const rule = main.locator('[data-rule="caller-id-wrong-place"]');
    await expect.poll(() => rule.getAttribute('data-status'), { timeout: 10_000 }).toBe('failed');
    await tabTo(page, rule.getByTestId('evidence-link').first());
    await page.keyboard.press('Enter');
    await expect.poll(() => page.url()).toContain('#/requests?id=2');

    // Control: add a user, then remove it.
    await goTo(page, 'Control', '#/control');
    const users = main.getByRole('form', { name: 'Users' });
    await tabTo(page, users.getByLabel('E-mail'));
    await page.keyboard.type('dave@example.com');
    await tabTo(page, users.getByRole('button', { name: 'Add user' }));
    await page.keyboard.press('Enter');
    await expect.poll(() => users.getByRole('status').textContent()).toBe('✓ Added (200)');
    await tabTo(page, users.getByRole('button', { name: 'Remove user' }));
    await page.keyboard.press('Space');
    await expect
      .poll(() => users.getByRole('status').textContent())
      .toBe('✓ Removed dave@example.com; 0 codes dropped (200)');
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);
});
