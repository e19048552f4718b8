// npm run bench:cli-start: how long `uas --help` takes to start against `node -e 0`, both run the
// same number of times in this run, taking turns; the budget is at most 30 ms more (the CLI is
// bundled, and heavy modules load lazily). `uas -V` and the help of a light command (code, call)
// and of the heaviest to declare (serve) are timed beside them, and the standalone executable
// (npm run build:standalone) when built. One start before the runs fills Node's compile cache.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const UAS = fileURLToPath(new URL('../bin/uas.js', import.meta.url));
const STANDALONE = fileURLToPath(new URL('../uas-linux-x64', import.meta.url));
const RUNS = 15;

const cases = [
  { name: 'node -e 0', command: process.execPath, args: ['-e', '0'] },
  { name: 'uas --help', command: process.execPath, args: [UAS, '--help'] },
  { name: 'uas -V', command: process.execPath, args: [UAS, '-V'] },
  { name: 'uas code --help', command: process.execPath, args: [UAS, 'code', '--help'] },
  { name: 'uas call --help', command: process.execPath, args: [UAS, 'call', '--help'] },
  { name: 'uas serve --help', command: process.execPath, args: [UAS, 'serve', '--help'] },
  ...(existsSync(STANDALONE)
    ? [{ name: 'uas-linux-x64 --help', command: STANDALONE, args: ['--help'] }]
    : []),
];

for (const { command, args } of cases) spawnSync(command, args, { stdio: 'ignore' });
const times = new Map(cases.map(({ name }) => [name, []]));
for (let run = 0; run < RUNS; run++) {
  for (const { name, command, args } of cases) {
    const started = performance.now();
    const result = spawnSync(command, args, { stdio: 'ignore' });
    if (result.status !== 0) throw new Error(`${name} exited ${result.status}`);
    times.get(name).push(performance.now() - started);
  }
}
const median = (name) => {
  const sorted = times.get(name).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const bare = median('node -e 0');
console.log(`bench:cli-start: median of ${RUNS} runs each, node ${process.version}`);
for (const { name } of cases) {
  const ms = median(name);
  const extra = name === 'node -e 0' ? '' : ` (+${(ms - bare).toFixed(0)} ms)`;
  console.log(`  ${name.padEnd(24)}${ms.toFixed(0).padStart(5)} ms${extra}`);
}
const help = median('uas --help');
console.log(
  `budget: uas --help within 30 ms of node -e 0: ${help - bare <= 30 ? 'within' : 'OVER'} budget (+${(help - bare).toFixed(0)} ms)`,
);
