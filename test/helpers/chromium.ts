import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { requireTool } from './require-tool.js';

/** Chromium for the browser tests (Debian's, or `CHROMIUM_PATH`). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = requireTool(
  'Chromium',
  existsSync(CHROMIUM),
  'apt-get install chromium',
);

/** Starts Chromium headless, with nothing that reaches the network on its own. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
