import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CONFIG, DEMO_TOKEN } from '../../src/demo-config.js';
import { parseRedisUrl } from '../../src/store/redis/store-url.js';
import { createApi, send } from '../helpers/api.js';
import { eventually } from '../helpers/eventually.js';
import {
  HAS_REDIS_CLUSTER,
  startRedisCluster,
  type TestRedisCluster,
} from '../helpers/redis-cluster.js';
import { runUas, spawnUas, waitForUrl, type UasProcess } from '../helpers/spawn-uas.js';

const AUTH = { authorization: `Bearer ${DEMO_TOKEN}` };
const exists = (callerId?: string) =>
  `/v1/users/exists?email=alice%40example.com${callerId === undefined ? '' : `&caller_id=${callerId}`}`;

describe.skipIf(!HAS_REDIS_CLUSTER)('uas serve instances on a three-master Redis Cluster', () => {
  let cluster: TestRedisCluster;
  let dir: string;
  const running: UasProcess[] = [];

  beforeAll(async () => {
    cluster = await startRedisCluster();
    dir = mkdtempSync(join(tmpdir(), 'uas-cluster-'));
  }, 60_000);
  afterEach(async () => {
    for (const uas of running.splice(0)) {
      uas.child.kill('SIGTERM');
      await uas.exited;
    }
    await cluster.flush();
  });
  afterAll(async () => {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A config file with limits that cannot refill within a test, and commands given 10 s: the
   * machine running the tests may be loaded, and a 503 for a slow answer would hide whether the
   * limits are exact.
   */
  function config(name: string, burst: { client: number; caller: number }): string {
    const file = join(dir, `${name}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        ...DEMO_CONFIG,
        store: { url: cluster.url, timeoutMs: 10_000 },
        limits: {
          client: { burst: burst.client, rate: '1/h' },
          caller: { burst: burst.caller, rate: '1/h' },
        },
      }),
    );
    return file;
  }

  /** Starts one `uas serve` per list of extra arguments on the cluster; resolves with URLs. */
  async function instances(...args: string[][]): Promise<string[]> {
    const started = args.map((extra) =>
      spawnUas(['serve', '--port', '0', '--log', 'off', '--store', cluster.url, ...extra]),
    );
    running.push(...started);
    return Promise.all(started.map((uas) => waitForUrl(uas)));
  }

  /** The port of the master that holds `key` now. */
  async function masterOf(key: string): Promise<number> {
    const slot = (await cluster.inspect.cluster('KEYSLOT', key)) as number;
    const ranges = await cluster.inspect.cluster('SLOTS');
    const range = ranges.find(([start, end]) => start <= slot && slot <= end);
    const port = range?.[2]?.[1];
    if (port === undefined) throw new Error(`no master serves slot ${slot}`);
    return port;
  }

  /** How many bucket keys each master holds, by port. */
  async function bucketKeysByMaster(): Promise<Map<number, number>> {
    const counts = new Map<number, number>();
    for (const node of cluster.inspect.nodes('master')) {
      const keys = await node.keys('uas:bucket:*');
      counts.set(node.options.port as number, keys.length);
    }
    return counts;
  }

  it('lets exactly the burst through two instances sent 500 requests at once, from one slot', async () => {
    const file = config('exact', { client: 50, caller: 5 });
    const urls = await instances(['--config', file], ['--config', file]);
    const statuses = await Promise.all(
      Array.from({ length: 500 }, async (_, index) => {
        const response = await fetch(`${urls[index % 2]}${exists()}`, { headers: AUTH });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(50);
    expect(statuses.filter((status) => status === 429)).toHaveLength(450);
    for (const url of urls)
      expect((await send(url, '/__uas/buckets/client:demo')).body).toMatchObject({
        allowed: 50,
        rejected: 450,
        remaining: 0,
      });
    // The bucket is one key, in the slot of its hash tag, on the one master that serves it.
    const key = 'uas:bucket:{client:demo}';
    expect(await cluster.inspect.cluster('KEYSLOT', key)).toBe(
      await cluster.inspect.cluster('KEYSLOT', 'client:demo'),
    );
    const holder = await masterOf(key);
    const counts = await bucketKeysByMaster();
    expect([...counts].filter(([, count]) => count > 0)).toEqual([[holder, 1]]);
  }, 60_000);

  it('shares codes, config changes, listings and resets across instances and masters', async () => {
    const file = config('shared', { client: 1000, caller: 5 });
    const [a, b] = (await instances(['--config', file], ['--config', file])) as [string, string];
    const apiA = createApi(a);
    const apiB = createApi(b);
    // A code issued on one instance verifies on the other, once.
    expect((await apiA.start({ email: 'alice@example.com', caller_id: 'p1' })).status).toBe(200);
    const code = (await send(b, '/__uas/codes/alice@example.com')).body.code as string;
    expect(code).toMatch(/^\d+$/);
    const verify = { email: 'alice@example.com', verification_code: code, caller_id: 'p1' };
    expect((await apiB.verify(verify)).status).toBe(200);
    expect((await apiA.verify(verify)).status).toBe(409);

    // A reader of events on one instance sees the requests of the other (whichever node each
    // one's subscription went to).
    const events = await fetch(`${b}/__uas/events`);
    const reader = (events.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    const decoder = new TextDecoder();
    const reading = (async () => {
      while (!text.includes('"caller_id":"seen-on-b"')) {
        const { value, done } = await reader.read();
        if (done) return;
        text += decoder.decode(value);
      }
    })();
    await eventually(async () => {
      await apiA.exists('email=alice%40example.com&caller_id=seen-on-b');
      return text.includes('"caller_id":"seen-on-b"');
    }, 10_000);
    await reader.cancel();
    await reading;

    // Thirty callers' buckets land on every master; each instance lists them all.
    for (let index = 0; index < 30; index++)
      expect((await apiA.exists(`email=alice%40example.com&caller_id=c${index}`)).status).toBe(200);
    const spread = await bucketKeysByMaster();
    expect([...spread.values()].every((count) => count > 0)).toBe(true);
    expect((await send(b, '/__uas/buckets?level=caller')).body.total).toBe(32);

    // One started with another config is refused while these run: it sees them on every node.
    const other = spawnUas([
      'serve',
      '--port',
      '0',
      '--config',
      config('other', { client: 7, caller: 7 }),
    ]);
    expect(await other.exited).toBe(1);
    expect(other.stderr()).toMatch(/is used by 2 instances started with another config/);

    // A change of limits made on one instance applies on the other.
    const patched = await send(a, '/__uas/config', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ limits: { caller: { burst: 2 } } }),
    });
    expect(patched.status).toBe(200);
    await eventually(async () => {
      const limits = (await send(b, '/__uas/config')).body.limits as { caller: { burst: number } };
      return limits.caller.burst === 2;
    });

    // A user removed on one instance is gone on the other, and so is its code, on its master.
    expect((await apiA.start({ email: 'carol@example.com', caller_id: 'p2' })).status).toBe(200);
    const removed = await send(b, '/__uas/users/carol%40example.com', { method: 'DELETE' });
    expect(removed.body).toEqual({ removed: 'carol@example.com', codes: 1 });
    await eventually(
      async () => (await apiA.exists('email=carol%40example.com')).body.exists === false,
    );
    expect((await send(a, '/__uas/codes/carol%40example.com')).status).toBe(404);

    // A reset on one instance empties every master, as the other sees it.
    expect((await send(a, '/__uas/reset', { method: 'POST' })).status).toBe(200);
    expect((await send(b, '/__uas/buckets')).body.total).toBe(0);
    expect([...(await bucketKeysByMaster()).values()]).toEqual([0, 0, 0]);
    expect((await send(b, '/__uas/codes')).body).toMatchObject({ codes: [] });
  }, 60_000);

  it('answers 503 (closed) or lets through (open) while a master is stopped, and recovers', async () => {
    const file = config('away', { client: 1000, caller: 5 });
    const [closed, open] = (await instances(
      ['--config', file],
      ['--config', file, '--on-store-error', 'open'],
    )) as [string, string];
    const callerId = 'victim';
    const port = await masterOf(`uas:bucket:{caller:demo:${callerId}}`);
    const status = async (url: string) => {
      const response = await fetch(`${url}${exists(callerId)}`, { headers: AUTH });
      await response.arrayBuffer();
      return response.status;
    };
    expect(await status(closed)).toBe(200);
    await cluster.kill(port);
    expect(await status(closed)).toBe(503);
    expect(await status(open)).toBe(200);
    await cluster.restart(port);
    // Back, and empty (it was killed): the bucket starts again, full, on both instances.
    let last = 0;
    await eventually(async () => (last = await status(closed)) === 200, 20_000).catch(
      (error: Error) => {
        throw new Error(`${error.message}: last answer ${last}`);
      },
    );
    expect(await status(open)).toBe(200);
    expect((await send(closed, `/__uas/buckets/caller:demo:${callerId}`)).body).toMatchObject({
      allowed: 2,
    });
  }, 60_000);

  it('serves with the command of docs/redis.md, given this cluster', async () => {
    const page = readFileSync(new URL('../../docs/redis.md', import.meta.url), 'utf8');
    const block = /## On a Redis Cluster[\s\S]*?```sh\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
    const [, url] = /^uas serve --store '([^']+)'\n$/.exec(block) ?? [];
    if (url === undefined) throw new Error(`no cluster command in docs/redis.md: ${block}`);
    expect(parseRedisUrl(url).connection).toMatchObject({
      cluster: [{ port: 7000 }, { port: 7000 }, { port: 7000 }],
    });
    const uas = spawnUas(['serve', '--store', cluster.url, '--port', '0']);
    running.push(uas);
    const served = await waitForUrl(uas);
    expect(uas.stdout()).toContain(`Redis at ${cluster.url}`);
    expect((await send(served, exists(), { headers: AUTH })).status).toBe(200);
  }, 60_000);

  it('refuses to start, in one line and exit code 1, when no node of the cluster answers', async () => {
    // A port of a node just stopped: nothing listens there.
    const [port] = cluster.ports as [number];
    await cluster.kill(port);
    try {
      const url = `redis://127.0.0.1:${port}?cluster=1`;
      const run = await runUas(['serve', '--port', '0', '--store', url]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        new RegExp(`^uas: cannot reach Redis at ${url.replace(/[?.]/g, '\\$&')}: .+\n$`),
      );
    } finally {
      await cluster.restart(port);
    }
  }, 60_000);
});
