// npm run bench:cli-start: how long `uas --help` takes to start against `node -e 0`, both run the
// same number of times in this run; the budget is at most 30 ms more (heavy modules load lazily).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const UAS = fileURLToPath(new URL('../bin/uas.js', import.meta.url));
const RUNS = 15;

function median(args) {
  const times = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { stdio: 'ignore' });
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const bare = median(['-e', '0']);
const help = median([UAS, '--help']);
const serveHelp = median([UAS, 'serve', '--help']);
console.log(`bench:cli-start: median of ${RUNS} runs each, node ${process.version}`);
console.log(`  node -e 0           ${bare.toFixed(0)} ms`);
console.log(
  `  uas --help          ${help.toFixed(0)} ms (+${(help - bare).toFixed(0)} ms, ${(help / bare).toFixed(2)}x)`,
);
console.log(
  `  uas serve --help    ${serveHelp.toFixed(0)} ms (+${(serveHelp - bare).toFixed(0)} ms)`,
);
console.log(
  `budget: uas --help within 30 ms of node -e 0: ${help - bare <= 30 ? 'within' : 'OVER'} budget`,
);
