// npm run bench:serve: drives a bare node:http server, the default engine and the msw engine of
// `uas serve` with the same autocannon load, and prints req/s, p50, p99, the server's CPU time per
// request and ratios to the bare server measured in this run (and the cost of `--record`). A second
// bare server sends uas's headers with the same body: the ceiling of any emulator of the spec; and
// uas's transport over a fixed answer tells the transport's cost from the core's. A minimal
// emulator (bench/minimal-server.mjs: the exists endpoint's own work and nothing else) tells what
// the spec costs from what uas adds.
// Each server runs in its own process; the load runs in this one.
// With `--store redis` it compares instead one process on memory, one on Redis (a redis-server
// it starts on a free port) and `--workers 2` on Redis; with `--store cluster`, the same on a
// three-master Redis Cluster on loopback (started as the cluster tests start theirs). Redis cases
// also print redis-server's CPU time per request, and run once with one bucket (every take on one
// key) and once with 10,000 caller_ids (buckets spread over the cluster's masters).
//
//   node bench/serve.mjs [--duration 5] [--connections 50] [--only fast] [--store redis|cluster]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { redisServerArgs } from '../dist/internal/store/redis/embedded-redis.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    // Each case runs this many times, the cases taking turns, and the median run is reported:
    // on a shared machine the speed drifts between runs, and a case measured once is compared
    // with a baseline measured at another speed.
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '2' },
    // Runs only the cases whose name contains this text (the bare servers always run).
    only: { type: 'string' },
    store: { type: 'string' },
  },
});
if (values.store !== undefined && values.store !== 'redis' && values.store !== 'cluster') {
  console.error('bench:serve: --store takes "redis" or "cluster"');
  process.exit(2);
}
const duration = Number(values.duration);
const connections = Number(values.connections);
const warmup = Number(values.warmup);
const rounds = Number(values.rounds);

const UAS = fileURLToPath(new URL('../bin/uas.js', import.meta.url));
const BARE = fileURLToPath(new URL('./bare-server.mjs', import.meta.url));
const FIXED = fileURLToPath(new URL('./fixed-answer-server.mjs', import.meta.url));
const MINIMAL = fileURLToPath(new URL('./minimal-server.mjs', import.meta.url));
const PATH = '/v1/users/exists?email=alice%40example.com';
const HEADERS = { authorization: 'Bearer uas-demo-token' };

function start(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/listening on (http:\/\/[\d.:]+)/);
      if (match) resolve({ child, url: match[1] });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

/**
 * CPU milliseconds (user and system) a process and its children (the workers of `--workers`)
 * have used, read from /proc; undefined where there is none (not Linux).
 */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const own = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter((child) => child !== '' && child !== '\n')
      .map((child) => cpuMs(Number(child)) ?? 0);
    return children.reduce((sum, ms) => sum + ms, own);
  } catch {
    return undefined;
  }
}

async function stop(server) {
  server.child.removeAllListeners('exit');
  const exited = new Promise((resolve) => server.child.on('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

/** A redis-server on a free loopback port, in a temporary directory, without persistence. */
async function startRedis() {
  const port = await new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
  const dir = mkdtempSync(join(tmpdir(), 'uas-bench-redis-'));
  const child = spawn('redis-server', redisServerArgs(dir, { port }), {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    let out = '';
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (/ready to accept connections/i.test(out)) resolve();
    });
  });
  return {
    url: `redis://127.0.0.1:${port}/0`,
    pids: () => [child.pid],
    async stop() {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A three-master Redis Cluster on loopback: the cluster tests' own helper
 * (test/helpers/redis-cluster.ts), compiled for this run with esbuild.
 */
async function startCluster() {
  const { build } = await import('esbuild');
  const outfile = fileURLToPath(
    new URL('../node_modules/.cache/uas-bench/redis-cluster.mjs', import.meta.url),
  );
  await build({
    entryPoints: [fileURLToPath(new URL('../test/helpers/redis-cluster.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'silent',
  });
  const { startRedisCluster } = await import(pathToFileURL(outfile).href);
  const cluster = await startRedisCluster();
  return { url: cluster.url, pids: () => cluster.pids(), stop: () => cluster.stop() };
}

/** The load of a case: one URL, or (`spread`) 10,000 caller_ids in turn. */
function load(url, seconds, spread = false) {
  let sent = 0;
  return autocannon({
    url: `${url}${PATH}`,
    headers: HEADERS,
    connections,
    duration: seconds,
    pipelining: 1,
    ...(spread && {
      requests: [
        {
          setupRequest(request) {
            return { ...request, path: `${PATH}&caller_id=c${sent++ % 10_000}` };
          },
        },
      ],
    }),
  });
}

const LARGE = ['--client-burst', '1000000000', '--client-rate', '1000000000/s'];
const SMALL = ['--client-burst', '10', '--client-rate', '1/s'];
const serve = [UAS, 'serve', '--port', '0', '--log', 'off'];
// Where the --record case writes (removed at the end).
const RECORD = join(tmpdir(), `uas-bench-record-${process.pid}.ndjson`);
const redis =
  values.store === 'redis'
    ? await startRedis()
    : values.store === 'cluster'
      ? await startCluster()
      : undefined;
const onRedis = redis === undefined ? [] : ['--store', redis.url];
const store = values.store === 'cluster' ? 'Redis Cluster' : 'Redis';
// Caller buckets as large as the client's, so that the spread cases are allowed too.
const LARGE_CALLERS = ['--caller-burst', '1000000000', '--caller-rate', '1000000000/s'];
const allCases =
  redis !== undefined
    ? [
        { name: 'bare node:http', args: [BARE] },
        // The load of 10,000 caller_ids costs the load generator more per request (about 40 µs
        // here), CPU it takes from the server on a small machine: the bare server under that load
        // is the yardstick of the spread cases.
        { name: 'bare node:http, 10k caller_ids', args: [BARE], spread: true, baseline: true },
        { name: 'uas memory, allowed', args: [...serve, ...LARGE] },
        { name: `uas ${store}, allowed`, args: [...serve, ...onRedis, ...LARGE] },
        { name: `uas ${store}, mostly 429`, args: [...serve, ...onRedis, ...SMALL] },
        {
          name: `uas ${store}, 10k caller_ids`,
          args: [...serve, ...onRedis, ...LARGE, ...LARGE_CALLERS],
          spread: true,
        },
        {
          name: `uas ${store}, 2 workers, allowed`,
          args: [...serve, ...onRedis, '--workers', '2', ...LARGE],
        },
        {
          name: `uas ${store}, 2 workers, 10k caller_ids`,
          args: [...serve, ...onRedis, '--workers', '2', ...LARGE, ...LARGE_CALLERS],
          spread: true,
        },
      ]
    : [
        { name: 'bare node:http', args: [BARE] },
        { name: 'bare, uas headers', args: [BARE, '--uas-headers'], baseline: true },
        { name: 'minimal emulator, allowed', args: [MINIMAL, ...LARGE], baseline: true },
        { name: 'minimal emulator, mostly 429', args: [MINIMAL, ...SMALL], baseline: true },
        { name: 'uas transport, fixed answer', args: [FIXED], baseline: true },
        { name: 'uas fast engine, allowed', args: [...serve, ...LARGE] },
        { name: 'uas fast engine, mostly 429', args: [...serve, ...SMALL] },
        { name: 'uas fast engine, --record', args: [...serve, '--record', RECORD, ...LARGE] },
        { name: 'uas msw engine, allowed', args: [...serve, '--engine', 'msw', ...LARGE] },
        { name: 'uas msw engine, mostly 429', args: [...serve, '--engine', 'msw', ...SMALL] },
      ];

const cases = allCases.filter(
  (entry, index) =>
    index === 0 ||
    entry.baseline === true ||
    values.only === undefined ||
    entry.name.includes(values.only),
);
console.log(
  `bench:serve: ${connections} connections, ${duration} s per case after ${warmup} s of warm-up, ${rounds} rounds (medians), node ${process.version}`,
);
/** CPU milliseconds every redis-server of the benchmark has used. */
const redisCpuMs = () => redis.pids().reduce((sum, pid) => sum + (cpuMs(pid) ?? NaN), 0);
/** Whether a case runs on the benchmark's redis-server. */
const onRedisCase = (entry) => redis !== undefined && entry.args.includes('--store');
/** One run of a case. */
async function measure(entry) {
  const server = await start(entry.args);
  await load(server.url, warmup, entry.spread);
  const cpuBefore = cpuMs(server.child.pid);
  const redisBefore = onRedisCase(entry) ? redisCpuMs() : undefined;
  const loadBefore = process.cpuUsage();
  const result = await load(server.url, duration, entry.spread);
  const loadCpu = process.cpuUsage(loadBefore);
  const cpuAfter = cpuMs(server.child.pid);
  const redisAfter = onRedisCase(entry) ? redisCpuMs() : undefined;
  await stop(server);
  const answered = Math.max(result.requests.total, 1);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    // Microseconds of the server's CPU per request answered.
    cpuUs:
      cpuBefore === undefined || cpuAfter === undefined
        ? undefined
        : ((cpuAfter - cpuBefore) * 1000) / answered,
    // Microseconds of the load generator's CPU (this process) per request answered.
    loadUs: (loadCpu.user + loadCpu.system) / answered,
    // Microseconds of redis-server's CPU per request answered (Redis cases).
    redisUs:
      redisBefore === undefined || redisAfter === undefined
        ? undefined
        : ((redisAfter - redisBefore) * 1000) / answered,
    statuses: {
      '2xx': result['2xx'],
      '4xx': result['4xx'],
      errors: result.errors + result.timeouts,
    },
  };
}
const runs = cases.map(() => []);
for (let round = 1; round <= rounds; round++) {
  for (const [index, entry] of cases.entries()) {
    const run = await measure(entry);
    runs[index].push(run);
    console.log(`  round ${round}, ${entry.name}: ${Math.round(run.rps)} req/s`);
  }
}
const median = (numbers) => {
  const sorted = numbers.filter((value) => value !== undefined).sort((a, b) => a - b);
  return sorted.length === 0 ? undefined : sorted[Math.floor((sorted.length - 1) / 2)];
};
const rows = cases.map((entry, index) => ({
  name: entry.name,
  rps: median(runs[index].map((run) => run.rps)),
  p50: median(runs[index].map((run) => run.p50)),
  p99: median(runs[index].map((run) => run.p99)),
  cpuUs: median(runs[index].map((run) => run.cpuUs)),
  redisUs: median(runs[index].map((run) => run.redisUs)),
  loadUs: median(runs[index].map((run) => run.loadUs)),
  statuses: {
    '2xx': runs[index].reduce((sum, run) => sum + run.statuses['2xx'], 0),
    '4xx': runs[index].reduce((sum, run) => sum + run.statuses['4xx'], 0),
    errors: runs[index].reduce((sum, run) => sum + run.statuses.errors, 0),
  },
}));

await redis?.stop();
rmSync(RECORD, { force: true });

const bare = rows[0];
const pad = (text, width) => String(text).padEnd(width);
console.log('');
console.log(
  `| ${pad('server', 44)} | ${pad('req/s', 8)} | ${pad('x bare', 6)} | ${pad('p50 ms', 6)} | ${pad('p99 ms', 6)} | ${pad('p99 x bare', 10)} | ${pad('CPU µs/req', 10)} | responses |`,
);
console.log(
  `| ${'-'.repeat(44)} | ${'-'.repeat(8)} | ${'-'.repeat(6)} | ${'-'.repeat(6)} | ${'-'.repeat(6)} | ${'-'.repeat(10)} | ${'-'.repeat(10)} | --------- |`,
);
for (const row of rows) {
  const ratio = (row.rps / bare.rps).toFixed(2);
  const p99 = (row.p99 / Math.max(bare.p99, 1)).toFixed(2);
  const responses = `${row.statuses['2xx']} 2xx, ${row.statuses['4xx']} 4xx, ${row.statuses.errors} errors`;
  const cpu = row.cpuUs === undefined ? '-' : row.cpuUs.toFixed(1);
  console.log(
    `| ${pad(row.name, 44)} | ${pad(Math.round(row.rps), 8)} | ${pad(ratio, 6)} | ${pad(row.p50, 6)} | ${pad(row.p99, 6)} | ${pad(p99, 10)} | ${pad(cpu, 10)} | ${responses} |`,
  );
}
const budget =
  redis === undefined
    ? [
        ['uas fast engine, allowed', 0.95],
        ['uas fast engine, mostly 429', 0.85],
      ]
    : [
        [`uas ${store}, allowed`, 0.5],
        [`uas ${store}, 10k caller_ids`, 0.5],
      ];
const spreadBare = rows.find((entry) => entry.name === 'bare node:http, 10k caller_ids');
console.log('');
for (const [name, ratio] of budget) {
  const row = rows.find((entry) => entry.name === name);
  if (row === undefined) continue;
  const spread = name.endsWith('10k caller_ids') && spreadBare !== undefined;
  const yardstick = spread ? spreadBare : bare;
  const x = row.rps / yardstick.rps;
  const p99 = row.p99 / Math.max(yardstick.p99, 1);
  console.log(
    `budget: ${name} >= ${ratio}x bare${spread ? ' under the same load' : ''}: ${x.toFixed(2)}x (${x >= ratio ? 'within' : 'OVER'}); p99 within 1.5x: ${p99.toFixed(2)}x (${p99 <= 1.5 ? 'within' : 'OVER'})${spread ? `; ${(row.rps / bare.rps).toFixed(2)}x the bare server under one URL's load` : ''}`,
  );
}
const ceiling = rows.find((entry) => entry.name === 'bare, uas headers');
if (ceiling !== undefined) {
  console.log(
    `ceiling: the bare server sending uas's headers does ${(ceiling.rps / bare.rps).toFixed(2)}x bare; ` +
      'CPU µs/req is what each server spent per answer (the load generator shares the machine)',
  );
  for (const row of rows.filter((entry) => entry.name.startsWith('uas fast engine')))
    console.log(
      `  ${row.name}: ${(row.rps / ceiling.rps).toFixed(2)}x the bare server sending uas's headers`,
    );
}
const plain = rows.find((entry) => entry.name === 'uas fast engine, allowed');
const recording = rows.find((entry) => entry.name === 'uas fast engine, --record');
if (plain !== undefined && recording !== undefined) {
  const x = recording.rps / plain.rps;
  console.log(
    `budget: --record >= 0.85x of the same server without it: ${x.toFixed(2)}x (${x >= 0.85 ? 'within' : 'OVER'}); CPU µs/req ${recording.cpuUs?.toFixed(1)} against ${plain.cpuUs?.toFixed(1)}`,
  );
}
for (const row of rows.filter((entry) => entry.redisUs !== undefined))
  console.log(
    `redis-server: ${row.redisUs.toFixed(1)} µs of CPU per request answered in "${row.name}"`,
  );
const loadUs = median(rows.map((row) => row.loadUs));
console.log(
  `load generator: ${loadUs?.toFixed(1)} µs of CPU per request (median of the cases), ${os.availableParallelism()} cores`,
);
for (const kind of ['allowed', 'mostly 429']) {
  const minimal = rows.find((entry) => entry.name === `minimal emulator, ${kind}`);
  const uas = rows.find((entry) => entry.name === `uas fast engine, ${kind}`);
  if (minimal !== undefined && uas !== undefined)
    console.log(
      `minimal emulator, ${kind}: ${(minimal.rps / bare.rps).toFixed(2)}x bare; uas fast engine does ${(uas.rps / minimal.rps).toFixed(2)}x of it`,
    );
}
