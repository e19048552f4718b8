import { readdirSync } from 'node:fs';
import { join, matchesGlob } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import config from '../vitest.config.js';
import { TIERS, type Tier } from './tiers.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every test file of src/ and test/, as a path from the root. */
function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function holds(tier: Tier, file: string): boolean {
  const matches = (globs: string[]) => globs.some((glob) => matchesGlob(file, glob));
  return matches(tier.include) && !matches(tier.exclude);
}

describe('the test tiers', () => {
  it('put every test file in exactly one tier', () => {
    const files = [...testFiles('src'), ...testFiles('test')];
    expect(files.length).toBeGreaterThan(150);
    const misplaced = files
      .map((file) => ({
        file,
        tiers: TIERS.filter((tier) => holds(tier, file)).map((t) => t.name),
      }))
      .filter(({ tiers }) => tiers.length !== 1);
    expect(misplaced).toEqual([]);
  });

  it('name no file that does not exist', () => {
    const files = [...testFiles('src'), ...testFiles('test')];
    for (const tier of TIERS)
      for (const glob of [...tier.include, ...tier.exclude])
        expect(
          files.some((file) => matchesGlob(file, glob)),
          `${tier.name}: ${glob}`,
        ).toBe(true);
  });

  it('are the projects vitest runs', () => {
    const projects = (config.test?.projects ?? []) as { test: { name: string } }[];
    expect(projects.map((project) => project.test.name)).toEqual(['unit', 'integration', 'e2e']);
  });
});
