import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { TIERS } from './test/tiers.js';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, where most
    // test files spend their time waiting on servers and processes they start. Two at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // unit, integration and e2e (test/tiers.ts): `npm test` runs the first two.
    projects: TIERS.map(({ name, include, exclude }) => ({
      extends: true,
      test: { name, include, exclude: [...configDefaults.exclude, ...exclude] },
    })),
  },
});
