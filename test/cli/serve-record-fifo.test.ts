import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HAS_REDIS } from '../helpers/redis-server.js';
import { spawnUas, waitForUrl, type UasProcess } from '../helpers/spawn-uas.js';
import { tempDir } from '../helpers/temp-dir.js';

// `uas serve --record` at a FIFO: its start never waits for the FIFO's reader.

const started: Array<UasProcess | ChildProcess | Server> = [];
afterEach(() => {
  for (const thing of started.splice(0)) {
    if ('listening' in thing) thing.close();
    else if ('child' in thing) thing.child.kill('SIGKILL');
    else thing.kill('SIGKILL');
  }
});

function fifo(): string {
  const path = `${tempDir('uas-serve-fifo-')}/requests.fifo`;
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
  return path;
}

/** How `uas serve ...args` ended, or 'still running' after 10 s (it waits for something). */
async function serveEnds(args: string[]) {
  const uas = spawnUas(['serve', '--log', 'off', ...args]);
  started.push(uas);
  const code = await Promise.race([
    uas.exited,
    new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 10_000)),
  ]);
  return { code, stderr: uas.stderr() };
}

async function portInUse(): Promise<number> {
  const blocker = createServer();
  started.push(blocker);
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  return (blocker.address() as { port: number }).port;
}

const NOBODY_READS = (path: string) =>
  `uas: cannot open --record ${path}: it is a FIFO that nobody reads; start its reader first (cat ${path} > sent.ndjson &), or give a file\n`;

describe.skipIf(process.platform === 'win32')('uas serve --record at a FIFO', () => {
  it('refuses a FIFO nobody reads at once, in one line, exit 2, instead of waiting for a reader', async () => {
    const path = fifo();
    expect(await serveEnds(['--port', '0', '--record', path])).toEqual({
      code: 2,
      stderr: NOBODY_READS(path),
    });
  }, 20_000);

  it.skipIf(!HAS_REDIS)(
    'refuses it in one line, exit 2, with --workers too, as a folder that is not there',
    async () => {
      const path = fifo();
      expect(
        await serveEnds(['--port', '0', '--record', path, '--workers', '2', '--store', 'redis']),
      ).toEqual({ code: 2, stderr: NOBODY_READS(path) });
      const missing = `${tempDir('uas-serve-fifo-')}/no/such/folder/requests.ndjson`;
      expect(
        await serveEnds(['--port', '0', '--record', missing, '--workers', '2', '--store', 'redis']),
      ).toEqual({
        code: 2,
        stderr: `uas: cannot open --record ${missing}: ENOENT: its folder does not exist\n`,
      });
    },
    30_000,
  );

  it('does not wait for a reader before it says the port is in use', async () => {
    const path = fifo();
    const port = String(await portInUse());
    expect(await serveEnds(['--port', port, '--record', path])).toEqual({
      code: 2,
      stderr: NOBODY_READS(path),
    });
    // With a reader, the port is what stops it.
    const reader = spawn('sh', ['-c', 'exec cat "$0" > /dev/null', path], { stdio: 'ignore' });
    started.push(reader);
    for (;;) {
      const ended = await serveEnds(['--port', port, '--record', path]);
      if (ended.stderr.includes('nobody reads')) continue; // the reader has not opened it yet
      expect(ended).toEqual({
        code: 1,
        stderr: `uas: port ${port} is already in use on 127.0.0.1; choose another with --port\n`,
      });
      break;
    }
  }, 30_000);

  it('records to a FIFO that a reader holds', async () => {
    const path = fifo();
    const reader = spawn('sh', ['-c', 'exec cat "$0"', path], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    started.push(reader);
    let read = '';
    reader.stdout.on('data', (chunk: Buffer) => (read += chunk.toString()));
    let uas: UasProcess;
    for (;;) {
      uas = spawnUas(['serve', '--port', '0', '--log', 'off', '--record', path]);
      started.push(uas);
      const url = await waitForUrl(uas).catch(() => undefined);
      if (url === undefined) continue; // the reader has not opened it yet
      await (await fetch(`${url}/v1/users/exists?email=a%40b.co`)).arrayBuffer();
      break;
    }
    uas.child.kill('SIGTERM');
    await uas.exited;
    expect(read).toContain('"path":"/v1/users/exists"');
  }, 30_000);
});
