import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, where most
    // test files spend their time waiting on servers and processes they start. Two at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
