// npm run bench:simulate: simulated requests per second of wall time for a large scenario (one
// simulated hour of 1,000 shoppers and a 200 req/s bot, all four modes), with the per-mode
// figures and, as a baseline from the same run, a bare loop of token-bucket decisions over a Map.
// Every mode runs once to warm up (the JIT compiles each mode's paths), then `--rounds` times
// (default 5), each run right after a run of the baseline: a mode's ratio in a round is its rate
// over the baseline's just before it, so a machine that slows down for a while (a shared runner)
// slows both. The median of the rounds' ratios is the mode's ratio. Run with --expose-gc (as the
// npm script does), each run starts after a full collection.
import { parseArgs } from 'node:util';
import { resolveScenario } from '../dist/internal/simulate/scenario.js';
import { generateTraffic } from '../dist/internal/simulate/traffic.js';
import { runVirtualMode } from '../dist/internal/simulate/virtual-run.js';
import { takeTokens } from '../dist/internal/core/limits/token-bucket.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number');

const scenario = resolveScenario({
  duration: '1h',
  seed: 1,
  shoppers: { count: 1000, arrivalRate: '1/s' },
  bot: { rate: '200/s', target: 'exists' },
});
const traffic = generateTraffic(scenario);

function baseline(count) {
  globalThis.gc?.();
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

/** Simulated requests per second of one mode's run. */
async function modeRate(mode) {
  globalThis.gc?.();
  const started = performance.now();
  const { requests } = await runVirtualMode(scenario, traffic, mode);
  return requests / ((performance.now() - started) / 1000);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const perSecond = (rate) => `${Math.round(rate).toLocaleString('en-US')}/s`;

console.log(
  `bench:simulate: ${scenario.durationMs / 3_600_000} h simulated, ${traffic.arrivals.length} shoppers, bot ${scenario.bot.rateText}, ${rounds} rounds after a warm-up, node ${process.version}`,
);
for (const mode of scenario.modes) await modeRate(mode); // warm-up
baseline(1_000_000);
const byMode = new Map(scenario.modes.map((mode) => [mode, { rates: [], ratios: [] }]));
const floors = [];
for (let round = 0; round < rounds; round++) {
  for (const mode of scenario.modes) {
    const floor = baseline(3_000_000);
    const rate = await modeRate(mode);
    floors.push(floor);
    byMode.get(mode).rates.push(rate);
    byMode.get(mode).ratios.push(rate / floor);
  }
}
console.log(
  `baseline (bare token-bucket decisions on a Map, same run): ${perSecond(median(floors))} median (from ${perSecond(Math.min(...floors))} to ${perSecond(Math.max(...floors))})`,
);
for (const [mode, { rates: modeRates, ratios }] of byMode) {
  const x = median(ratios);
  console.log(
    `  ${mode.padEnd(10)} ${perSecond(median(modeRates)).padStart(12)} simulated requests (rounds: ${modeRates.map(perSecond).join(', ')}) = ${x.toFixed(2)}x of the baseline (rounds: ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')}): budget 0.8x ${x >= 0.8 ? 'within' : 'OVER'}`,
  );
}
