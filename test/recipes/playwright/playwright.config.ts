import { defineConfig } from '@playwright/test';

// Each worker has an emulator of its own (uas-fixture.ts): tests run in parallel, those of one
// file included.
export default defineConfig({
  testDir: './tests',
  fullyParallel: true,
});
