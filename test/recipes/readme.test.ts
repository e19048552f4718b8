import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8').trimEnd();

describe('the recipes of README', () => {
  it.each([
    'vitest-msw/sign-in.test.ts',
    'playwright/playwright.config.ts',
    'playwright/tests/sign-in.spec.ts',
    'express/app.mjs',
  ])('shows %s as it is in test/recipes', (file) => {
    expect(read('../../README.md')).toContain(read(file));
  });
});
