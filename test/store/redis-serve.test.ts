import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CONFIG, DEMO_TOKEN } from '../../src/demo-config.js';
import { createApi, send } from '../helpers/api.js';
import { eventually } from '../helpers/eventually.js';
import { HAS_REDIS, startRedis, type TestRedis } from '../helpers/redis-server.js';
import { runUas, spawnUas, waitForUrl, type UasProcess } from '../helpers/spawn-uas.js';

const EXISTS = '/v1/users/exists?email=alice%40example.com';
const AUTH = { authorization: `Bearer ${DEMO_TOKEN}` };

describe.skipIf(!HAS_REDIS)('uas serve instances on one Redis', () => {
  let redis: TestRedis;
  let inspect: Redis;
  let dir: string;
  const running: UasProcess[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    inspect = new Redis(redis.url, { lazyConnect: true });
    // Tests stop Redis on purpose: this client reconnects when it is back.
    inspect.on('error', () => {});
    await inspect.connect();
    dir = mkdtempSync(join(tmpdir(), 'uas-instances-'));
  });
  afterEach(async () => {
    for (const uas of running.splice(0)) {
      uas.child.kill('SIGTERM');
      await uas.exited;
    }
    await inspect.flushall();
  });
  afterAll(async () => {
    inspect.disconnect();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A config file with these limits. */
  function config(name: string, limits: unknown, store?: unknown): string {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify({ ...DEMO_CONFIG, limits, ...(store ? { store } : {}) }));
    return file;
  }

  /** Starts `count` instances of `uas serve` on the test's Redis; resolves with their URLs. */
  async function instances(count: number, args: string[]): Promise<string[]> {
    const started = Array.from({ length: count }, () =>
      spawnUas(['serve', '--port', '0', '--log', 'json', '--store', redis.url, ...args]),
    );
    running.push(...started);
    return Promise.all(started.map((uas) => waitForUrl(uas)));
  }

  for (const count of [2, 4])
    it(`lets exactly the burst through ${count} instances sent ten times as many requests at once`, async () => {
      // Exactness is what is tested, not latency: on a busy CI machine a take may wait past the
      // default 1 s store timeout and be answered 503 (as designed), so the timeout is generous.
      const file = config(
        `exact-${count}`,
        { client: { burst: 50, rate: '1/h' }, caller: { burst: 5, rate: '1/h' } },
        { url: redis.url, timeoutMs: 30_000 },
      );
      const urls = await instances(count, ['--config', file]);
      const statuses = await Promise.all(
        Array.from({ length: 500 }, async (_, index) => {
          const response = await fetch(`${urls[index % count]}${EXISTS}`, { headers: AUTH });
          await response.arrayBuffer();
          return response.status;
        }),
      );
      const tally: Record<number, number> = {};
      for (const status of statuses) tally[status] = (tally[status] ?? 0) + 1;
      expect(tally).toEqual({ 200: 50, 429: 450 });
      // Every instance took part, and every one reads the same shared bucket.
      for (const url of urls) {
        const answered = (await send(url, '/__uas/requests')).body.requests as unknown[];
        expect(answered.length).toBeGreaterThan(0);
        const bucket = (await send(url, '/__uas/buckets/client:demo')).body;
        expect(bucket).toMatchObject({ allowed: 50, rejected: 450, remaining: 0 });
      }
    });

  it('refills one bucket across two instances at its rate, on their shared manual clock', async () => {
    const file = config('refill', {
      client: { burst: 10, rate: '200/s' },
      caller: { burst: 5, rate: '1/s' },
    });
    const [a, b] = (await instances(2, ['--config', file, '--clock', 'manual'])) as [
      string,
      string,
    ];
    /** Sends `count` requests, taking turns between the instances; how many were allowed. */
    const allowed = async (count: number) => {
      let ok = 0;
      for (let index = 0; index < count; index++) {
        const response = await fetch(`${index % 2 === 0 ? a : b}${EXISTS}`, { headers: AUTH });
        await response.arrayBuffer();
        if (response.status === 200) ok++;
      }
      return ok;
    };
    const advance = async (url: string, ms: number) => {
      const moved = await send(url, '/__uas/clock', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advance_ms: ms }),
      });
      expect(moved.status).toBe(200);
    };
    expect(await allowed(14)).toBe(10);
    // Moved on one instance, the clock has moved for both: 40 ms at 200/s is 8 tokens.
    await advance(a, 40);
    expect(await allowed(12)).toBe(8);
    // 7 ms is 1.4 tokens, and 3 ms more makes the 0.4 left a whole one: fractions are shared too.
    await advance(b, 7);
    expect(await allowed(3)).toBe(1);
    await advance(a, 3);
    expect(await allowed(3)).toBe(1);
    // A second refills far past the burst, which caps it.
    await advance(b, 1_000);
    expect(await allowed(15)).toBe(10);
  });

  it('shares codes, config changes, resets and events between instances', async () => {
    const [a, b] = (await instances(2, [])) as [string, string];
    // A code started on one instance verifies on the other.
    const apiA = createApi(a);
    const apiB = createApi(b);
    expect((await apiA.start({ email: 'alice@example.com', caller_id: 'p1' })).status).toBe(200);
    const code = (await send(b, '/__uas/codes/alice@example.com')).body.code as string;
    expect(
      (await apiB.verify({ email: 'alice@example.com', verification_code: code, caller_id: 'p1' }))
        .status,
    ).toBe(200);
    expect(
      (await apiA.verify({ email: 'alice@example.com', verification_code: code, caller_id: 'p1' }))
        .status,
    ).toBe(409);

    // A reader of events on one instance sees the requests of the other.
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
    // Instance a publishes events once it has learnt that b has a reader (it asks each second).
    await eventually(async () => {
      await apiA.exists('email=alice%40example.com&caller_id=seen-on-b');
      return text.includes('"caller_id":"seen-on-b"');
    }, 10_000).catch(() => {});
    await reader.cancel();
    await reading;
    expect(text).toContain('"caller_id":"seen-on-b"');

    // A change made through one instance's dev API applies on the other.
    const patched = await send(a, '/__uas/config', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ limits: { caller: { burst: 2 } } }),
    });
    expect(patched.status).toBe(200);
    await eventually(async () => {
      const limits = (await send(b, '/__uas/config')).body.limits as { caller: { burst: number } };
      return limits.caller.burst === 2;
    }).catch(() => {});
    expect(((await send(b, '/__uas/config')).body.limits as { caller: unknown }).caller).toEqual({
      burst: 2,
      rate: '1/s',
    });
    expect((await send(a, '/__uas/reset', { method: 'POST' })).status).toBe(200);
    expect((await send(b, '/__uas/buckets')).body.total).toBe(0);
  });

  it('runs several workers on one port with a redis-server of its own, and stops them all', async () => {
    const file = config('workers', {
      client: { burst: 20, rate: '1/h' },
      caller: { burst: 5, rate: '1/h' },
    });
    const uas = spawnUas([
      'serve',
      '--port',
      '0',
      '--workers',
      '2',
      '--store',
      'redis',
      '--config',
      file,
    ]);
    running.push(uas);
    const url = await waitForUrl(uas);
    expect(uas.stdout()).toMatch(/workers {3}2 processes on this port/);
    expect(uas.stdout()).toMatch(
      /store {5}Redis at unix:\/\/.*redis\.sock \(started for this server\)/,
    );
    const children = execFileSync('pgrep', ['-P', String(uas.child.pid)], { encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(children).toHaveLength(3); // two workers and the redis-server
    const socket = /unix:\/\/(\S+redis\.sock)/.exec(uas.stdout())?.[1] as string;
    const statuses = await Promise.all(
      Array.from({ length: 100 }, async () => {
        const response = await fetch(`${url}${EXISTS}`, { headers: AUTH, keepalive: false });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);

    // A worker that dies is replaced; the buckets, in Redis, stay as they were.
    const worker = children.find(
      (pid) => !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('redis-server'),
    ) as string;
    process.kill(Number(worker), 'SIGKILL');
    // One line, as every note of the server: "uas: " only where stderr takes it (--log off).
    await uas.waitFor(/^worker \d stopped \(SIGKILL\); starting another$/m);
    let after = 0;
    await eventually(async () => {
      // A kept-alive connection the killed worker held fails once ("other side closed"): a
      // client sends again, on a new connection, which a live worker takes.
      after = await fetch(`${url}${EXISTS}`, { headers: AUTH }).then(
        (response) => response.status,
        () => 0,
      );
      return after === 429;
    }, 10_000).catch(() => {});
    expect(after).toBe(429);
    const replaced = execFileSync('pgrep', ['-P', String(uas.child.pid)], { encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(replaced).toHaveLength(3);

    uas.child.kill('SIGTERM');
    expect(await uas.exited).toBe(0);
    running.splice(running.indexOf(uas), 1);
    expect(uas.stdout()).toContain('workers stopped');
    expect(existsSync(socket)).toBe(false);
    for (const pid of replaced)
      expect(() => process.kill(Number(pid), 0), `process ${pid} still runs`).toThrow();
  });

  it.each([
    {
      label: 'one process',
      args: [],
      said: /uas: the local redis-server of --store redis exited \(SIGKILL\); its state is gone; stopping\n/,
    },
    {
      label: 'two workers',
      args: ['--workers', '2'],
      said: /uas: the local redis-server of --store redis exited \(SIGKILL\); its state is gone; stopping 2 workers\n/,
    },
  ])(
    'stops, exit 1, when its own redis-server dies ($label)',
    async ({ args, said }) => {
      const uas = spawnUas(['serve', '--port', '0', '--log', 'off', '--store', 'redis', ...args]);
      running.push(uas);
      await waitForUrl(uas);
      const server = execFileSync('pgrep', ['-P', String(uas.child.pid)], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('redis-server'));
      expect(server).toBeDefined();
      process.kill(Number(server), 'SIGKILL');
      expect(await uas.exited).toBe(1);
      running.splice(running.indexOf(uas), 1);
      expect(uas.stderr()).toMatch(said);
      expect(uas.stderr()).not.toContain('uas: uas:');
    },
    30_000,
  );

  it('runs every worker on the config the primary read, from a pipe that gives it once', async () => {
    const file = config('piped', {
      client: { burst: 20, rate: '1/h' },
      caller: { burst: 2, rate: '1/h' },
    });
    const fifo = join(dir, 'piped.fifo');
    execFileSync('mkfifo', [fifo]);
    // Written once, as by `-c <(...)`: a worker that opened it again would wait for a writer.
    const writer = spawn('sh', ['-c', 'cat "$0" > "$1"', file, fifo], { stdio: 'ignore' });
    const uas = spawnUas([
      'serve',
      '--port',
      '0',
      '--workers',
      '2',
      '--store',
      'redis',
      '-c',
      fifo,
    ]);
    running.push(uas);
    const url = await waitForUrl(uas);
    writer.kill();
    expect(uas.stdout()).toMatch(/workers {3}2 processes on this port/);
    expect(uas.stdout()).toContain(`config    ${fifo}`);
    const statuses: number[] = [];
    for (let request = 0; request < 4; request++) {
      const response = await fetch(`${url}${EXISTS}&caller_id=piped`, {
        headers: AUTH,
        keepalive: false,
      });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
  });

  it('stops workers that cannot start, and once it runs, tries a worker again until it can', async () => {
    // A port in use: every worker fails alike, and the command ends (it does not hang).
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = String((taken.address() as AddressInfo).port);
    const inUse = await runUas(['serve', '--port', port, '--workers', '2', '--store', redis.url]);
    taken.close();
    expect(inUse.code).toBe(1);
    expect(inUse.stdout + inUse.stderr).toMatch(/port .* is already in use/);

    // Redis away when a worker dies: its replacement cannot start, and is tried again until
    // Redis is back.
    const uas = spawnUas(['serve', '--port', '0', '--workers', '2', '--store', redis.url]);
    running.push(uas);
    const url = await waitForUrl(uas);
    await redis.kill();
    const workers = execFileSync('pgrep', ['-P', String(uas.child.pid)], { encoding: 'utf8' })
      .trim()
      .split('\n');
    process.kill(Number(workers[0]), 'SIGKILL');
    await uas.waitFor(/worker \d could not start \(exit code 1\); starting another in 1 s/, 15_000);
    await redis.restart();
    let last = '';
    await eventually(async () => {
      const children = execFileSync('pgrep', ['-P', String(uas.child.pid)], { encoding: 'utf8' });
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          fetch(`${url}${EXISTS}`, { headers: AUTH, keepalive: false }).then((r) => r.status),
        ),
      );
      last = `${children.trim().split('\n').length} workers, answers ${answers.join(' ')}`;
      // Answered from Redis (200, or 429 once the client bucket is spent), not 503.
      return children.trim().split('\n').length === 2 && answers.every((s) => s !== 503);
    }, 20_000).catch((error: Error) => {
      throw new Error(`${error.message}: ${last}; ${uas.stdout()} ${uas.stderr()}`);
    });
  }, 60_000);

  it('refuses what cannot work, each in one line', async () => {
    const memory = await runUas(['serve', '--port', '0', '--workers', '2']);
    expect(memory.code).toBe(2);
    expect(memory.stderr).toBe(
      'uas: --workers 2 needs a store the processes share: add --store redis (a local redis-server started for it) or --store redis://host:6379\n',
    );
    const unreachable = await runUas([
      'serve',
      '--port',
      '0',
      '--store',
      'redis://:pw1234@127.0.0.1:1/0',
    ]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(
      /^uas: cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1\/0: connect ECONNREFUSED 127\.0\.0\.1:1\n$/,
    );
    const scheme = await runUas(['serve', '--port', '0', '--store', 'ftp://x']);
    expect(scheme.code).toBe(2);
    expect(scheme.stderr).toMatch(/^uas: invalid --store: expected "memory", "redis"/);
    // A bad URL in the config file is named as the config's field, not as a flag never given.
    const fromConfig = await runUas([
      'serve',
      '--port',
      '0',
      '--config',
      config('query-store', DEMO_CONFIG.limits, { url: 'redis://127.0.0.1/0?cluster=2' }),
    ]);
    expect(fromConfig.code).toBe(2);
    expect(fromConfig.stderr).toMatch(
      /^uas: invalid store\.url of the config: redis:\/\/127\.0\.0\.1\/0\?cluster=2: a Redis URL takes no query but \?cluster=1/,
    );
    const tui = await runUas([
      'serve',
      '--port',
      '0',
      '--workers',
      '2',
      '--store',
      'redis',
      '--tui',
    ]);
    expect(tui.code).toBe(2);
    const absent = await runUas(['serve', '--port', '0', '--store', 'redis'], {
      PATH: join(dir, 'no-such-bin'),
    });
    expect(absent.code).toBe(2);
    expect(absent.stderr).toMatch(
      /^uas: --store redis starts a local redis-server, and none is installed/,
    );
  });

  it('refuses an instance with another config beside running ones, in one line', async () => {
    await instances(1, [
      '--config',
      config('fifty', { client: { burst: 50, rate: '1/h' }, caller: { burst: 5, rate: '1/h' } }),
    ]);
    const other = await runUas([
      'serve',
      '--port',
      '0',
      '--store',
      redis.url,
      '--config',
      config('nine', { client: { burst: 9, rate: '1/h' }, caller: { burst: 5, rate: '1/h' } }),
    ]);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(
      /^uas: prefix "uas" at redis:\/\/127\.0\.0\.1:\d+\/0 is used by an instance started with another config .* \(--store-prefix\)\n$/,
    );
    const flags = await runUas([
      'serve',
      '--port',
      '0',
      '--store',
      redis.url,
      '--client-burst',
      '7',
    ]);
    expect(flags.code).toBe(1);
    // Its own prefix: no conflict.
    const own = await instances(1, ['--store-prefix', 'other', '--client-burst', '7']);
    expect(own).toHaveLength(1);
  });

  it('answers 503 while Redis is down, says so once, and recovers when it is back', async () => {
    const [url] = (await instances(1, [])) as [string];
    const uas = running[0] as UasProcess;
    expect((await fetch(`${url}${EXISTS}`, { headers: AUTH })).status).toBe(200);
    await redis.kill();
    try {
      const refused = await send(url, EXISTS, { headers: AUTH });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.body.type).toBe('urn:uas:problem:store-unavailable');
      await send(url, EXISTS, { headers: AUTH });
      const downLines = uas
        .stdout()
        .split('\n')
        .filter((line) => line.includes('"state":"down"'));
      expect(downLines).toHaveLength(1);
      expect(downLines[0]).toContain('requests get 503 store-unavailable until it is back');
      expect((await send(url, '/__uas/metrics')).text).toContain('uas_store_up 0');
      expect((await send(url, '/__uas/health')).body).toMatchObject({
        status: 'ok',
        store: 'down',
      });
    } finally {
      await redis.restart();
    }
    let status = 0;
    await eventually(async () => {
      status = (await fetch(`${url}${EXISTS}`, { headers: AUTH })).status;
      return status === 200;
    }, 10_000).catch(() => {});
    expect(status).toBe(200);
    expect((await send(url, '/__uas/health')).body).toMatchObject({ store: 'up' });
    await uas.waitFor(
      /"state":"up","message":"store: Redis at redis:\/\/127\.0\.0\.1:\d+\/0 is reachable again"/,
    );
  });
});

describe.skipIf(!HAS_REDIS)('the uas/node example of docs/redis.md', () => {
  it('runs as written, on a real redis-server', async () => {
    const redis = await startRedis();
    const work = mkdtempSync(join(tmpdir(), 'uas-readme-redis-'));
    try {
      const page = readFileSync(new URL('../../docs/redis.md', import.meta.url), 'utf8');
      const block = /## From code[\s\S]*?```ts\n([\s\S]*?)```/.exec(page)?.[1];
      if (block === undefined) throw new Error('the example is not in docs/redis.md');
      expect(block).toContain("url: 'redis://127.0.0.1:6379/0'");
      const script = `${block
        .replace('redis://127.0.0.1:6379/0', redis.url)
        .replace('listen(emulator, 4010,', 'listen(emulator, 0,')}
await server.close(100);
await store.close();
`;
      mkdirSync(join(work, 'node_modules'));
      symlinkSync(
        fileURLToPath(new URL('../..', import.meta.url)),
        join(work, 'node_modules', 'uas'),
      );
      writeFileSync(join(work, 'example.mjs'), script);
      const run = spawnSync(process.execPath, ['example.mjs'], { cwd: work, encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/^on http:\/\/127\.0\.0\.1:\d+, with 0 buckets\n$/);
      expect(run.status).toBe(0);
    } finally {
      rmSync(work, { recursive: true, force: true });
      await redis.stop();
    }
  });
});
