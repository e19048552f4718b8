import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFORM_PROBES } from './probe-catalog.js';

const PROBE_FILES = readdirSync(new URL('./probes/', import.meta.url)).filter(
  (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
);

const camelCase = (kebab: string) =>
  kebab.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

describe('CONFORM_PROBES', () => {
  it('holds every probe of probes/ once, each file named after its id and exporting it by that name', async () => {
    expect(CONFORM_PROBES.map((probe) => `${probe.id.replace('.', '-')}.ts`).sort()).toEqual(
      [...PROBE_FILES].sort(),
    );
    for (const file of PROBE_FILES) {
      const base = file.replace(/\.ts$/, '');
      const url = new URL(`./probes/${base}.ts`, import.meta.url).href;
      const module = (await import(/* @vite-ignore */ url)) as Record<string, unknown>;
      const name = camelCase(base);
      expect(Object.keys(module), file).toEqual([name]);
      expect(CONFORM_PROBES).toContain(module[name]);
    }
  });

  it('gives every probe an id of its family and a title', () => {
    for (const probe of CONFORM_PROBES) {
      expect(probe.title.length, probe.id).toBeGreaterThan(10);
      expect(probe.id).toMatch(/^[a-z]+\.[a-z0-9-]+$/);
    }
  });
});
