import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator } from '../../emulator.js';
import { DEMO_CONFIG } from '../../demo-config.js';
import { loadMswEngine } from './load-msw-engine.js';

describe('loadMswEngine', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** A module of handlers with this source, in a folder of its own. */
  function moduleOf(source: string): { dir: string; file: string } {
    const dir = mkdtempSync(join(tmpdir(), 'uas-handlers-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'handlers.mjs'), source);
    return { dir, file: 'handlers.mjs' };
  }

  it('refuses a handlers array holding something that is no msw handler, naming its place', async () => {
    const { dir, file } = moduleOf(
      `import { http, HttpResponse } from ${JSON.stringify(import.meta.resolve('msw'))};\n` +
        "export const handlers = [http.get('/x', () => HttpResponse.json({})), {}];\n",
    );
    await expect(loadMswEngine(createEmulator({ config: DEMO_CONFIG }), file, dir)).rejects.toThrow(
      `--handlers ${join(dir, file)}: item 1 of its handlers is not an msw handler (such as http.get(path, resolver))`,
    );
  });

  it('says a handlers file that is not there is not, and names a module it imports that is not', async () => {
    const { dir } = moduleOf('');
    const emulator = createEmulator({ config: DEMO_CONFIG });
    await expect(loadMswEngine(emulator, 'nope.mjs', dir)).rejects.toThrow(
      new RegExp(`^cannot load --handlers ${join(dir, 'nope.mjs')}: no such file$`),
    );
    writeFileSync(join(dir, 'handlers.mjs'), "import 'no-such-package-of-uas';\n");
    await expect(loadMswEngine(emulator, 'handlers.mjs', dir)).rejects.toThrow(
      /^cannot load --handlers .*: Cannot find package 'no-such-package-of-uas'/,
    );
  });

  it('takes an array of msw handlers', async () => {
    const { dir, file } = moduleOf(
      `import { http, HttpResponse } from ${JSON.stringify(import.meta.resolve('msw'))};\n` +
        "export const handlers = [http.get('/x', () => HttpResponse.json({}))];\n",
    );
    await expect(
      loadMswEngine(createEmulator({ config: DEMO_CONFIG }), file, dir),
    ).resolves.toBeDefined();
  });
});
