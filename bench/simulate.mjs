// npm run bench:simulate: simulated requests per second of wall time for a large scenario (one
// simulated hour of 1,000 shoppers and a 200 req/s bot, all four modes), with the per-mode
// figures and, as a baseline from the same run, a bare loop of token-bucket decisions over a Map.
import { resolveScenario } from '../dist/internal/simulate/scenario.js';
import { generateTraffic } from '../dist/internal/simulate/traffic.js';
import { runVirtualMode } from '../dist/internal/simulate/virtual-run.js';
import { takeTokens } from '../dist/internal/core/limits/token-bucket.js';

const scenario = resolveScenario({
  duration: '1h',
  seed: 1,
  shoppers: { count: 1000, arrivalRate: '1/s' },
  bot: { rate: '200/s', target: 'exists' },
});
const traffic = generateTraffic(scenario);

function baseline(count) {
  const buckets = new Map();
  const policy = { burst: 5, refillPerMs: 0.001 };
  const started = performance.now();
  for (let index = 0; index < count; index++) {
    const key = `caller:shop:10.0.${(index >> 8) & 255}.${index & 255}`;
    const decision = takeTokens(buckets.get(key), index, policy, 1);
    buckets.set(key, { tokens: decision.tokens, updatedAt: index });
  }
  return count / ((performance.now() - started) / 1000);
}

await runVirtualMode(scenario, traffic, 'shared'); // warm-up
let total = 0;
const started = performance.now();
console.log(
  `bench:simulate: ${scenario.durationMs / 3_600_000} h simulated, ${traffic.arrivals.length} shoppers, bot ${scenario.bot.rateText}, node ${process.version}`,
);
const rates = [];
for (const mode of scenario.modes) {
  const modeStarted = performance.now();
  const { requests } = await runVirtualMode(scenario, traffic, mode);
  const seconds = (performance.now() - modeStarted) / 1000;
  total += requests;
  rates.push([mode, requests / seconds]);
  console.log(
    `  ${mode.padEnd(10)} ${requests} requests in ${seconds.toFixed(2)} s = ${Math.round(requests / seconds).toLocaleString('en-US')} req/s`,
  );
}
const seconds = (performance.now() - started) / 1000;
const rate = total / seconds;
const floor = baseline(3_000_000);
console.log(
  `\nall modes: ${total} simulated requests in ${seconds.toFixed(2)} s = ${Math.round(rate).toLocaleString('en-US')} simulated requests per second of wall time`,
);
console.log(
  `baseline (bare token-bucket decisions on a Map, same run): ${Math.round(floor).toLocaleString('en-US')}/s; the simulator runs at ${(rate / floor).toFixed(2)}x of it`,
);
for (const [mode, modeRate] of rates) {
  const x = modeRate / floor;
  console.log(
    `budget: ${mode} at 0.8x of the baseline or more: ${x.toFixed(2)}x (${x >= 0.8 ? 'within' : 'OVER'})`,
  );
}
