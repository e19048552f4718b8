import { defineConfig } from '@playwright/test';

// uas serve runs beside the app under test, on a manual clock that the tests move.
const port = Number(process.env.UAS_PORT ?? 4010);

export default defineConfig({
  testDir: './tests',
  webServer: {
    command: `npx uas serve --port ${port} --clock manual --log off`,
    url: `http://127.0.0.1:${port}/__uas/health`,
    reuseExistingServer: false,
  },
  use: { baseURL: `http://127.0.0.1:${port}` },
});
