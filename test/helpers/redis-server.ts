import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireTool } from './require-tool.js';
import { redisServerArgs } from '../../src/store/redis/embedded-redis.js';
import type { RedisStore } from '../../src/store/redis/redis-store.js';

/** Whether redis-server can run here (else the Redis tests are skipped, or fail in CI). */
export const HAS_REDIS = requireTool(
  'redis-server',
  spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0,
  'apt-get install redis-server',
);

/** A redis-server of a test: on a free loopback port, in a temporary directory, no persistence. */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** Stops it (SIGKILL: everything in it is lost, as after a crash). */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts a redis-server for a test. */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'uas-redis-'));
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const started = spawn('redis-server', redisServerArgs(dir, { port }), {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(
        () => reject(new Error(`redis-server did not start:\n${out}`)),
        10_000,
      );
      started.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (/ready to accept connections/i.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
      started.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}:\n${out}`));
      });
    });
  }

  async function kill(): Promise<void> {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  }

  await start();
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    kill,
    restart: start,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A redis-server of a file's or describe block's own (none where redis-server cannot run), a
 * connection to look into it, and the stores its tests open: closed, and Redis flushed, after
 * each test.
 */
export function useTestRedis(): {
  readonly server: TestRedis;
  readonly inspect: Redis;
  /** Stores to close after the test. */
  readonly opened: RedisStore[];
} {
  let server: TestRedis | undefined;
  let inspector: Redis | undefined;
  const opened: RedisStore[] = [];
  beforeAll(async () => {
    if (!HAS_REDIS) return;
    server = await startRedis();
    inspector = new Redis(server.url, { lazyConnect: true });
    // Tests stop Redis on purpose: this client reconnects when it is back, without printing.
    inspector.on('error', () => {});
    await inspector.connect();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    await inspector?.flushall();
  });
  afterAll(async () => {
    inspector?.disconnect();
    await server?.stop();
  });
  return {
    get server(): TestRedis {
      if (server === undefined) throw new Error('redis-server has not started');
      return server;
    },
    get inspect(): Redis {
      if (inspector === undefined) throw new Error('redis-server has not started');
      return inspector;
    },
    opened,
  };
}
