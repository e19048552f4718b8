// npm run bench:dashboard: what the web dashboard costs. Prints the shipped assets' size (gzip),
// the first paint of /__uas/ui/ on loopback in Chromium (median of 5 cold loads), and `uas serve`'s
// throughput under the same autocannon load without and with the dashboard open and live on its
// Overview (the runs take turns; the median of each is compared, in this one run).
//
//   node bench/dashboard.mjs [--duration 5] [--rounds 3] [--connections 50] [--pin]
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { chromium } from 'playwright-core';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    // The server alone on the second core, autocannon and the browser on the first (Linux,
    // taskset): the server's CPU per request is then its own, not inflated by sharing a core.
    pin: { type: 'boolean', default: false },
  },
});
if (values.pin)
  execFileSync('taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
const UAS = fileURLToPath(new URL('../bin/uas.js', import.meta.url));
const UI = fileURLToPath(new URL('../dist/ui/', import.meta.url));
const PATH = '/v1/users/exists?email=alice%40example.com&caller_id=203.0.113.7';
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

function assetSize(dir = UI) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    total += entry.isDirectory()
      ? assetSize(join(dir, entry.name))
      : gzipSync(readFileSync(join(dir, entry.name)), { level: 9 }).byteLength;
  return total;
}

function startServer() {
  return new Promise((resolve, reject) => {
    // A rate no load can empty: every request is allowed, and counted in its bucket.
    const child = spawn(
      values.pin ? 'taskset' : process.execPath,
      [
        ...(values.pin ? ['-c', '1', process.execPath] : []),
        UAS,
        'serve',
        '--port',
        '0',
        '--log',
        'off',
        '--caller-burst',
        '1000000000',
        '--caller-rate',
        '1000000000/s',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/listening on (http:\/\/[\d.:]+)/);
      if (match) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`uas serve exited (${code})`)));
  });
}

/** CPU milliseconds (user and system) a process has used, from /proc (Linux). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** The pids of the browser's processes (Chromium runs several). */
function browserPids() {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (/chrom/i.test(readFileSync(`/proc/${entry}/comm`, 'utf8'))) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** CPU milliseconds the browser's processes have used. */
function browserCpuMs() {
  let total = 0;
  for (const pid of browserPids()) {
    try {
      total += cpuMs(pid);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/**
 * Requests/s under load, the server's CPU µs per request, and the share of one core the browser
 * took meanwhile (which the server, the load and the browser share on this machine).
 */
async function load(url, pid, overallRate = undefined) {
  const before = cpuMs(pid);
  const browserBefore = browserCpuMs();
  const result = await autocannon({
    url: `${url}${PATH}`,
    headers: { authorization: 'Bearer uas-demo-token' },
    connections: Number(values.connections),
    duration: Number(values.duration),
    ...(overallRate === undefined ? {} : { overallRate }),
  });
  const cpu = ((cpuMs(pid) - before) * 1000) / Math.max(1, result.requests.total);
  const browser = (browserCpuMs() - browserBefore) / (Number(values.duration) * 1000);
  return { rate: result.requests.average, cpu, browser };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const server = await startServer();
try {
  const paints = [];
  for (let index = 0; index < 5; index++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/__uas/ui/`);
    await page.getByText('Live').first().waitFor();
    paints.push(
      await page.evaluate(
        () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      ),
    );
    await context.close();
  }
  await load(server.url, server.child.pid); // warm-up
  const without = [];
  const withDashboard = [];
  // A server's CPU per request grows as its load falls (fewer requests share each turn of its
  // event loop): its cost is also compared at one fixed rate, half what it served alone.
  const steadyWithout = [];
  const steadyWith = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    without.push(await load(server.url, server.child.pid));
    const steadyRate = Math.round(without.at(-1).rate / 2);
    steadyWithout.push(await load(server.url, server.child.pid, steadyRate));
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/__uas/ui/#/overview`);
    await page.getByText('Live').first().waitFor();
    withDashboard.push(await load(server.url, server.child.pid));
    steadyWith.push(await load(server.url, server.child.pid, steadyRate));
    const shown = await page.getByTestId('total-requests').textContent();
    await context.close();
    const [a, b] = [without.at(-1), withDashboard.at(-1)];
    const [c, d] = [steadyWithout.at(-1), steadyWith.at(-1)];
    console.log(
      `round ${round + 1}: ${Math.round(a.rate)} req/s (${a.cpu.toFixed(1)} µs CPU/req) without, ${Math.round(b.rate)} req/s (${b.cpu.toFixed(1)} µs CPU/req, the browser ${(b.browser * 100).toFixed(0)}% of a core) with; at ${steadyRate} req/s ${c.cpu.toFixed(1)} µs CPU/req without, ${d.cpu.toFixed(1)} with; the page shows ${shown}`,
    );
  }
  const rate = (runs) => median(runs.map((run) => run.rate));
  const cpu = (runs) => median(runs.map((run) => run.cpu));
  const ratio = rate(withDashboard) / rate(without);
  console.log(`assets          ${(assetSize() / 1024).toFixed(1)} KB gzip in all (budget 150 KB)`);
  console.log(
    `first paint     ${median(paints).toFixed(0)} ms median of 5 cold loads on loopback (budget 300 ms)`,
  );
  console.log(
    `throughput      ${Math.round(rate(without))} req/s without the dashboard, ${Math.round(rate(withDashboard))} with it open and live: ${ratio.toFixed(3)}x (budget 0.95x)`,
  );
  console.log(
    `server CPU      ${cpu(without).toFixed(1)} µs per request without, ${cpu(withDashboard).toFixed(1)} with: ${(cpu(without) / cpu(withDashboard)).toFixed(3)}x the requests per CPU second`,
  );
  console.log(
    `at a fixed rate ${cpu(steadyWithout).toFixed(1)} µs per request without, ${cpu(steadyWith).toFixed(1)} with (half the rate served alone, the same load for both): ${(cpu(steadyWithout) / cpu(steadyWith)).toFixed(3)}x the requests per CPU second`,
  );
} finally {
  server.child.kill('SIGTERM');
  await browser.close();
}
