// npm run bench:proxy: the overhead of `uas serve --upstream`. A stand-in of the real service (a
// `uas serve` with limits no load empties) is driven with the same autocannon load straight and
// through a second `uas serve --upstream` in front of it, the two taking turns; prints req/s and
// p99 of each (median of the rounds) and the ratios, measured in this run. Each server runs in
// its own process; the load runs in this one. `--enforce` measures the proxy with uas's buckets.
//
//   node bench/proxy.mjs [--duration 5] [--rounds 3] [--connections 50] [--enforce shadow]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '2' },
    enforce: { type: 'string', default: 'upstream' },
  },
});
const UAS = fileURLToPath(new URL('../bin/uas.js', import.meta.url));
const PATH = '/v1/users/exists?email=alice%40example.com';
const HEADERS = { authorization: 'Bearer uas-demo-token' };
const dir = mkdtempSync(join(tmpdir(), 'uas-bench-proxy-'));
const config = join(dir, 'roomy.json');
// Roomy limits: every request of the load is allowed, straight or through the proxy.
writeFileSync(
  config,
  JSON.stringify({
    clients: [
      { id: 'demo', token: 'uas-demo-token', merchants: ['6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01'] },
    ],
    users: [{ email: 'alice@example.com', token_count: 2 }],
    limits: {
      client: { burst: 1_000_000_000, rate: '1000000000/s' },
      caller: { burst: 1_000_000_000, rate: '1000000000/s' },
    },
  }),
);

function start(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [UAS, 'serve', '--port', '0', '--log', 'off', '-c', config, ...args],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/listening on (http:\/\/[\d.:]+)/);
      if (match) resolve({ child, url: match[1] });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

async function load(url, seconds) {
  const result = await autocannon({
    url: `${url}${PATH}`,
    headers: HEADERS,
    connections: Number(values.connections),
    duration: seconds,
  });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx };
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

const real = await start([]);
const proxy = await start(['--upstream', real.url, '--enforce', values.enforce]);
try {
  await load(real.url, Number(values.warmup));
  await load(proxy.url, Number(values.warmup));
  const runs = { direct: [], proxy: [] };
  for (let round = 0; round < Number(values.rounds); round++) {
    runs.direct.push(await load(real.url, Number(values.duration)));
    runs.proxy.push(await load(proxy.url, Number(values.duration)));
  }
  const summary = Object.fromEntries(
    Object.entries(runs).map(([name, list]) => [
      name,
      {
        rps: Math.round(median(list.map((run) => run.rps))),
        p99: median(list.map((run) => run.p99)),
        non2xx: list.reduce((sum, run) => sum + run.non2xx, 0),
      },
    ]),
  );
  console.log(
    `uas serve --upstream (--enforce ${values.enforce}), ${values.connections} connections, median of ${values.rounds} rounds of ${values.duration} s`,
  );
  for (const [name, { rps, p99, non2xx }] of Object.entries(summary))
    console.log(
      `  ${name.padEnd(7)} ${String(rps).padStart(7)} req/s   p99 ${p99} ms${non2xx > 0 ? `   (${non2xx} non-2xx)` : ''}`,
    );
  console.log(
    `  proxy/direct: ${(summary.proxy.rps / summary.direct.rps).toFixed(2)}x req/s, ${(summary.proxy.p99 / Math.max(1, summary.direct.p99)).toFixed(2)}x p99`,
  );
} finally {
  real.child.removeAllListeners('exit');
  proxy.child.removeAllListeners('exit');
  real.child.kill();
  proxy.child.kill();
  rmSync(dir, { recursive: true, force: true });
}
