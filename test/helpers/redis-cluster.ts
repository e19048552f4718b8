import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster } from 'ioredis';
import { redisServerArgs } from '../../src/store/redis/embedded-redis.js';
import { HAS_REDIS } from './redis-server.js';

/** Whether a cluster can be made here: redis-server and redis-cli (else its tests are skipped). */
export const HAS_REDIS_CLUSTER =
  HAS_REDIS && spawnSync('redis-cli', ['--version'], { encoding: 'utf8' }).status === 0;

/** A Redis Cluster of a test: three masters, no replicas, on loopback, no persistence. */
export interface TestRedisCluster {
  /** `redis://127.0.0.1:<first port>?cluster=1&seed=127.0.0.1:<second port>…` */
  readonly url: string;
  readonly ports: readonly number[];
  /** A client of the cluster, to look into it. */
  readonly inspect: Cluster;
  /** Stops a master (SIGKILL: its keys are lost, as after a crash). */
  kill(port: number): Promise<void>;
  /** Starts a stopped master again on its port, empty, as the same node of the cluster. */
  restart(port: number): Promise<void>;
  /** Empties every master. */
  flush(): Promise<void>;
  /** The process ids of the masters running (for a benchmark's CPU figures). */
  pids(): number[];
  stop(): Promise<void>;
}

/** Whether a TCP port can be listened on at 127.0.0.1 now. */
async function isFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Three ports where a cluster node can listen: each free, and its cluster bus (the port plus
 * 10,000) free too. A cluster keeps its ports in its node files, so they must be fixed ports.
 */
async function freeClusterPorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    if (ports.includes(port)) continue;
    if ((await isFree(port)) && (await isFree(port + 10_000))) ports.push(port);
  }
  return ports;
}

/** Starts one node: resolves once it accepts connections. */
function startNode(dir: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    [
      ...redisServerArgs(dir, { port }),
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      `nodes-${port}.conf`,
      // Short, so that a stopped master is seen failed, and back, within a test.
      '--cluster-node-timeout',
      '1000',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`redis-server did not start:\n${out}`)),
      10_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/ready to accept connections/i.test(out)) {
        clearTimeout(timer);
        child.stdout?.resume();
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${out}`));
    });
  });
}

/** Runs redis-cli; throws with its output when it fails. */
function redisCli(args: string[]): string {
  const run = spawnSync('redis-cli', args, { encoding: 'utf8', timeout: 30_000 });
  if (run.status !== 0)
    throw new Error(`redis-cli ${args.join(' ')} failed:\n${run.stdout}${run.stderr}`);
  return run.stdout;
}

/** Waits until every node says the cluster is ok (each slot served), polling redis-cli. */
async function untilClusterOk(ports: readonly number[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ok = ports.every((port) =>
      /cluster_state:ok/.test(
        spawnSync('redis-cli', ['-p', String(port), 'cluster', 'info'], { encoding: 'utf8' })
          .stdout ?? '',
      ),
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`the cluster on ${ports.join(', ')} is not ok`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts a three-master cluster on loopback, its files in a temporary directory. */
export async function startRedisCluster(): Promise<TestRedisCluster> {
  const ports = await freeClusterPorts(3);
  const dir = mkdtempSync(join(tmpdir(), 'uas-redis-cluster-'));
  const nodes = new Map<number, ChildProcess>();
  const nodeDir = (port: number) => {
    const path = join(dir, String(port));
    mkdirSync(path, { recursive: true });
    return path;
  };
  for (const port of ports) nodes.set(port, await startNode(nodeDir(port), port));
  redisCli([
    '--cluster',
    'create',
    ...ports.map((port) => `127.0.0.1:${port}`),
    '--cluster-replicas',
    '0',
    '--cluster-yes',
  ]);
  await untilClusterOk(ports);
  const inspect = new Cluster(
    ports.map((port) => ({ host: '127.0.0.1', port })),
    { lazyConnect: true },
  );
  // Tests stop masters on purpose: this client finds them again when they are back.
  inspect.on('error', () => {});
  await inspect.connect();

  async function kill(port: number): Promise<void> {
    const running = nodes.get(port);
    nodes.delete(port);
    if (running === undefined || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  }

  const [first, ...seeds] = ports;
  return {
    url: `redis://127.0.0.1:${first}?cluster=1${seeds.map((port) => `&seed=127.0.0.1:${port}`).join('')}`,
    ports,
    inspect,
    kill,
    async restart(port) {
      nodes.set(port, await startNode(nodeDir(port), port));
      await untilClusterOk(ports);
    },
    async flush() {
      await Promise.all(inspect.nodes('master').map((node) => node.flushall()));
    },
    pids: () => [...nodes.values()].flatMap((node) => (node.pid === undefined ? [] : [node.pid])),
    async stop() {
      inspect.disconnect();
      for (const port of [...nodes.keys()]) await kill(port);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
