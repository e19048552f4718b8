// npm run bench:flood: floods the emulator with two million distinct caller_ids and prints heap,
// RSS, buckets held and throughput at intervals, twice:
//   A. default limits on the wall clock (caller buckets refill in seconds: refilled buckets are
//      dropped past keepFullBuckets, so memory follows the flood rate, not its length);
//   B. caller buckets that never refill during the run (1 token an hour), so every bucket stays
//      live: 1,000,000 live buckets is the DESIGN budget (under 150 MB of heap), and maxBuckets
//      (1,000,000) caps the rest by least-recently-used eviction.
// Requests go through emulator.handle (routing, auth, validation, bucket, operation, journal)
// in-process. Baseline: the heap of the same emulator before the flood, measured in this run.
// "Held" is the V8 heap plus array buffers (the bucket store keeps its numbers in typed arrays,
// outside the V8 heap): what the budget counts.
//
// Each run has a process of its own, so that what one run leaves (its emulator, and the garbage
// it made) is neither counted in the other's baseline nor freed during it.
//
//   node --expose-gc bench/flood.mjs [--count 2000000]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createEmulator, DEMO_CONFIG, DEMO_TOKEN } from '../dist/index.js';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '2000000' }, run: { type: 'string' } },
});
if (!/^[1-9]\d{0,8}$/.test(values.count)) {
  console.error(
    `bench:flood: --count must be a whole number of requests from 1 to 999999999, not ${JSON.stringify(values.count)}`,
  );
  process.exit(2);
}
const COUNT = Number(values.count);
/** The live buckets the budget is for: a flood of fewer requests cannot judge it. */
const BUDGET_BUCKETS = 1_000_000;
// A row every eighth of the flood, and one at its end.
const STEP = Math.max(1, Math.floor(COUNT / 8));
const gc = globalThis.gc ?? (() => {});
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function heap() {
  gc();
  const usage = process.memoryUsage();
  return { ...usage, held: usage.heapUsed + usage.arrayBuffers };
}

function flood(label, limits) {
  const emulator = createEmulator({
    config: { ...DEMO_CONFIG, limits: { ...DEMO_CONFIG.limits, ...limits } },
  });
  const headers = { authorization: `Bearer ${DEMO_TOKEN}` };
  const baseline = heap();
  console.log(`\n${label}`);
  console.log(`  baseline: held ${mb(baseline.held)}, rss ${mb(baseline.rss)}`);
  console.log(
    '  requests   heap used   array buffers   held - baseline   rss        buckets    req/s',
  );
  let started = performance.now();
  let peak = 0;
  let counted = 0;
  for (let index = 1; index <= COUNT; index++) {
    const response = emulator.handle({
      method: 'GET',
      url: `/v1/users/exists?email=alice%40example.com&caller_id=c${index}`,
      headers,
    });
    if (response.status !== 200) throw new Error(`request ${index} answered ${response.status}`);
    if (index % STEP === 0 || index === COUNT) {
      const seconds = (performance.now() - started) / 1000;
      const memory = heap();
      const buckets = emulator.metrics().match(/uas_buckets\{level="caller"\} (\d+)/)?.[1];
      peak = Math.max(peak, memory.held - baseline.held);
      console.log(
        `  ${String(index).padEnd(10)} ${mb(memory.heapUsed).padEnd(11)} ${mb(memory.arrayBuffers).padEnd(15)} ${mb(memory.held - baseline.held).padEnd(17)} ${mb(memory.rss).padEnd(10)} ${String(buckets).padEnd(10)} ${Math.round((index - counted) / seconds)}`,
      );
      started = performance.now();
      counted = index;
    }
  }
  console.log(`  peak held above baseline (heap + array buffers): ${mb(peak)}`);
  return peak;
}

if (values.run === 'A') flood('A. default limits (caller 5 tokens at 1/s), wall clock', {});
else if (values.run === 'B') {
  const peak = flood(
    'B. caller buckets that never refill (5 tokens at 1/h), maxBuckets 1,000,000',
    {
      caller: { burst: 5, rate: '1/h' },
    },
  );
  console.log(
    COUNT < BUDGET_BUCKETS
      ? `\nbudget: 1,000,000 live caller buckets under 150 MB (heap + array buffers): not judged, ${COUNT} requests held at most ${COUNT} live buckets (${mb(peak)} at the peak); --count 1000000 or more judges it`
      : `\nbudget: 1,000,000 live caller buckets under 150 MB (heap + array buffers): ${mb(peak)} at the peak (${peak < 150 * 1024 * 1024 ? 'within' : 'OVER'} budget)`,
  );
} else {
  console.log(
    `bench:flood: ${COUNT} distinct caller_ids per run, node ${process.version}${globalThis.gc ? '' : ' (run with --expose-gc for exact heap figures)'}`,
  );
  for (const run of ['A', 'B'])
    execFileSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--count', String(COUNT), '--run', run],
      { stdio: 'inherit' },
    );
}
