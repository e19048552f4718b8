import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';

export { hasChromium, launchChromium } from '../helpers/chromium.js';

/** Where each page's screenshot is written (git-ignored). */
export const SHOTS = fileURLToPath(new URL('../../test-results/dashboard/', import.meta.url));
/** The screenshot README shows, written when `UAS_DASHBOARD_SCREENSHOT=1`. */
export const README_SHOT = fileURLToPath(new URL('../../docs/img/dashboard.png', import.meta.url));

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A new page that records script errors, CSP violations and requests to other hosts. */
export async function openPage(browser: Browser, origin: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors: string[] = [];
  const foreign: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content.Security.Policy|Refused to/i.test(message.text()))
      errors.push(message.text());
  });
  page.on('request', (request) => {
    if (!request.url().startsWith(origin) && !request.url().startsWith('blob:'))
      foreign.push(request.url());
  });
  return { page, errors, foreign };
}

/** The serious and critical violations axe-core finds on the page as it is. */
export async function axeViolations(page: Page): Promise<string[]> {
  // The page's CSP refuses inline script: axe goes in through the debugger's evaluator.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const results = (await page.evaluate(() =>
    (
      window as unknown as {
        axe: {
          run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }>;
        };
      }
    ).axe.run(),
  )) as { violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }> };
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${JSON.stringify(violation.nodes.slice(0, 3).map((node) => node.target))}`,
    );
}

/** Writes a screenshot of the page as a test artefact. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });
}
