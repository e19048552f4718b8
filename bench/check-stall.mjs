// npm run bench:check-stall: how long GET /__uas/check holds the event loop on a large journal.
// It fills an emulator's journal (in-process, on a manual clock) with 120,000 varied requests (two
// clients, exists by e-mail and by phone, passwordless start with JSON bodies, caller_ids shared,
// per request, internal or missing, resends after 429 with and without Retry-Attempt or an
// Idempotency-Key, unauthenticated requests), serves it over HTTP with `listen` of `uas/node`, and
// runs GET /__uas/check while pinging GET /__uas/health every 5 ms, for 1 and then 3 checks at
// once. It prints the longest event-loop block (perf_hooks), the longest and the p99 ping latency,
// and how long the checks took. Baseline: the same pings with no check running, in this run.
// Each case first sends one more request, so that its checks find a journal not judged yet.
//
//   node bench/check-stall.mjs [--records 120000] [--concurrent 1,3]
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createEmulator, createManualClock, createSeededRandom } from '../dist/index.js';
import { DEMO_CONFIG, DEMO_MERCHANT, DEMO_TOKEN, OTHER_TOKEN } from '../dist/index.js';
import { listen } from '../dist/node.js';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '120000' },
    concurrent: { type: 'string', default: '1,3' },
  },
});
const RECORDS = Number(values.records);
const PING_EVERY_MS = 5;

/** The i-th request of the journal: a mix of what integrations send, good and bad. */
function requestOf(index) {
  const shopper = `shopper${index % 9_973}@example.com`;
  const kind = index % 10;
  const auth = { authorization: `Bearer ${index % 7 === 0 ? OTHER_TOKEN : DEMO_TOKEN}` };
  const caller = [`sess-${index % 4_001}`, `10.0.${index % 250}.7`, 'shared', shopper, ''][
    index % 5
  ];
  if (kind === 0)
    return { method: 'GET', url: '/v1/users/exists?email=x%40example.com', headers: {} };
  if (kind <= 3) {
    const query = `email=${encodeURIComponent(shopper)}&caller_id=${encodeURIComponent(caller)}`;
    return { method: 'GET', url: `/v1/users/exists?${query}`, headers: auth };
  }
  if (kind === 4) {
    const phone = `+1415555${String(index % 10_000).padStart(4, '0')}`;
    return {
      method: 'GET',
      url: `/v1/users/exists?phone_number=${encodeURIComponent(phone)}`,
      headers: auth,
    };
  }
  const headers = { ...auth, 'content-type': 'application/json' };
  if (kind === 5) headers['idempotency-key'] = `key-${index % 3_001}`;
  if (kind === 6) headers['retry-attempt'] = String(index % 4);
  const body = JSON.stringify({ email: shopper, caller_id: caller });
  const url = `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`;
  return { method: 'POST', url, headers, body };
}

function filledEmulator() {
  const clock = createManualClock(Date.parse('2026-01-01T00:00:00Z'));
  const emulator = createEmulator({
    config: { ...DEMO_CONFIG, journal: { size: 'unbounded' } },
    clock,
    random: createSeededRandom(7),
  });
  for (let index = 0, held = 0; held < RECORDS; index++) {
    const request = requestOf(index);
    emulator.handle(request);
    held++;
    // Every fifth request is sent again soon after (a resend, or a shopper's double click).
    if (index % 5 === 0 && held < RECORDS) {
      clock.advance(index % 3 === 0 ? 40 : 1_100);
      emulator.handle(request);
      held++;
    }
    clock.advance(index % 11 === 0 ? 900 : 13);
  }
  return emulator;
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** Pings /__uas/health every 5 ms until `until` settles; the latencies in ms. */
async function pingWhile(url, until) {
  const latencies = [];
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    const started = performance.now();
    await (await fetch(`${url}/__uas/health`)).arrayBuffer();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, PING_EVERY_MS));
  }
  return latencies.sort((a, b) => a - b);
}

async function measure(url, label, checks) {
  // One more request, so that no check is answered from the last one (the journal changed).
  await (await fetch(`${url}/v1/users/exists?email=x%40example.com`)).arrayBuffer();
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const started = performance.now();
  const running =
    checks === 0
      ? new Promise((resolve) => setTimeout(resolve, 2_000))
      : Promise.all(
          Array.from({ length: checks }, async () => {
            const answer = await fetch(`${url}/__uas/check`);
            const body = await answer.json();
            if (answer.status !== 200) throw new Error(`check answered ${answer.status}`);
            return body;
          }),
        );
  const latencies = await pingWhile(url, running);
  const reports = await running;
  const total = performance.now() - started;
  loop.disable();
  const requests = checks === 0 ? '' : ` (${reports[0].summary.requests} requests judged)`;
  console.log(
    `${label.padEnd(22)} longest block ${(loop.max / 1e6).toFixed(0).padStart(5)} ms` +
      `  ping max ${latencies.at(-1).toFixed(0).padStart(5)} ms  p99 ${percentile(latencies, 0.99).toFixed(0).padStart(5)} ms` +
      `  (${latencies.length} pings)  total ${(total / 1000).toFixed(2)} s${requests}`,
  );
}

const filling = performance.now();
const emulator = filledEmulator();
console.log(
  `journal: ${emulator.requests().length} records, filled in ${((performance.now() - filling) / 1000).toFixed(1)} s`,
);
const server = await listen(emulator, 0, '127.0.0.1');
try {
  await measure(server.url, 'no check (baseline)', 0);
  for (const checks of values.concurrent.split(',').map(Number))
    await measure(server.url, `${checks} concurrent check${checks === 1 ? '' : 's'}`, checks);
} finally {
  await server.close(0);
}
