import { test as base } from '@playwright/test';
import { createDevClient, createEmulator, createManualClock, type DevClient } from 'uas';
import { listen } from 'uas/node';

// One emulator per Playwright worker, on a port of its own (0 picks a free one): the server that
// `uas serve --clock manual` runs. Workers run in parallel, and each resets, fails and moves the
// clock of its own emulator only.
export const test = base.extend<{ uas: DevClient }, { uasUrl: string }>({
  uasUrl: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from it
    async ({}, use) => {
      const clock = createManualClock(Date.parse('2026-01-01T00:00:00Z')); // moved by the tests
      const server = await listen(createEmulator({ clock }), 0, '127.0.0.1');
      await use(server.url);
      await server.close();
    },
    { scope: 'worker' },
  ],
  // `request` calls this worker's emulator; an app of yours under test, started per worker in a
  // fixture like this one, is given `uasUrl` as the service's address.
  baseURL: async ({ uasUrl }, use) => use(uasUrl),
  uas: async ({ uasUrl }, use) => {
    const uas = createDevClient(uasUrl);
    await uas.reset(); // buckets, codes, journal, users, config, faults and the clock as at start
    await use(uas);
  },
});

export { expect } from '@playwright/test';
