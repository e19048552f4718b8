import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { spawnUas } from '../helpers/spawn-uas.js';

/** Whether a process runs (a zombie not yet reaped counts as gone once its parent is). */
function runs(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

describe.skipIf(process.platform === 'win32')(
  'uas serve --store redis stopped while it starts',
  () => {
    const dirs: string[] = [];
    afterEach(() => {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    });

    it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)(
      'stops the redis-server it started, and removes its folder, on %s before it listens',
      async (signal) => {
        // A redis-server that never says it is ready: the start waits on it.
        const bin = mkdtempSync(join(tmpdir(), 'uas-fake-redis-'));
        dirs.push(bin);
        const said = join(bin, 'said');
        const fake = join(bin, 'redis-server');
        writeFileSync(
          fake,
          `#!/bin/sh\necho "$$ $*" > '${said}.tmp'\nmv '${said}.tmp' '${said}'\nexec sleep 60\n`,
        );
        chmodSync(fake, 0o755);
        const uas = spawnUas(['serve', '--port', '0', '--store', 'redis'], {
          PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
        });
        await eventually(() => existsSync(said));
        const [pid, ...args] = readFileSync(said, 'utf8').trim().split(' ');
        const folder = args[args.indexOf('--dir') + 1] as string;
        expect(existsSync(folder)).toBe(true);
        uas.child.kill(signal);
        await uas.exited;
        expect(uas.child.signalCode).toBe(signal);
        expect(uas.stdout()).not.toContain('listening');
        await eventually(() => !runs(Number(pid)));
        expect(existsSync(folder)).toBe(false);
      },
      20_000,
    );
  },
);
