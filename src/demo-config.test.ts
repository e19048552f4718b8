import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEMO_CONFIG } from './demo-config.js';
import { VERSION } from './version.js';

describe('the bundled demo config', () => {
  it('is the same in fixtures/uas.config.json and in the library', () => {
    const file = JSON.parse(
      readFileSync(new URL('../fixtures/uas.config.json', import.meta.url), 'utf8'),
    );
    expect(file).toEqual(DEMO_CONFIG);
  });

  it('carries the version of package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(VERSION).toBe(pkg.version);
  });
});
