import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageBlocks, ROOT } from './doc-blocks.js';

// README.md's install from a clone, run in this clone: `npx uas` finds the package's own bin,
// `npm link` puts it on PATH (here into a prefix of the test's own), and `npm start` builds and
// serves (its script is checked, not run: it would rebuild dist/ under the other tests).

const block = pageBlocks('README.md').find((candidate) => candidate.body.includes('npm link'))!;
const lines = block.body
  .split('\n')
  .map((line) => line.replace(/\s+#\s.*$/, '').trim())
  .filter(Boolean);
const version = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

describe("README's install from a clone", () => {
  it('is the three commands this test runs', () => {
    expect(lines).toEqual(['npm install && npm start', 'npx uas --help', 'npm link']);
  });

  it('runs uas with npx inside the clone, without installing anything', () => {
    const run = spawnSync('npx', ['--no-install', 'uas', '--help'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Usage: uas /);
  }, 30_000);

  it('puts uas on PATH with npm link', () => {
    const prefix = mkdtempSync(join(tmpdir(), 'uas-docs-link-'));
    try {
      const link = spawnSync('npm', ['link', '--no-audit', '--no-fund', '--loglevel=error'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, NPM_CONFIG_PREFIX: prefix },
      });
      expect(link.status, link.stderr).toBe(0);
      const run = spawnSync(join(prefix, 'bin', 'uas'), ['--version'], { encoding: 'utf8' });
      expect(run.stdout.trim(), run.stderr).toBe(version);
      // The linked uas checks an integration, from outside the clone.
      const check = spawnSync(
        join(prefix, 'bin', 'uas'),
        [
          'check',
          '--chaos',
          '0',
          '--',
          process.execPath,
          join(ROOT, 'fixtures/integrations/correct.mjs'),
        ],
        { cwd: prefix, encoding: 'utf8' },
      );
      expect(check.status, check.stderr).toBe(0);
      expect(check.stdout + check.stderr).toMatch(/uas check: 0 errors, 0 warnings/);
    } finally {
      rmSync(prefix, { recursive: true, force: true });
    }
  }, 60_000);
});
