// npm run bench:serve:in-process: the JavaScript time per request of each server of bench:serve,
// without system calls or a load generator. A driver hands each server a connection over an
// in-memory socket and sends it requests one at a time (the next once the answer is out), timing
// rounds of 50,000; it prints the fastest round and the median per server. The load test's
// figures drift by 15 % or more on a shared machine; these hold still, so they tell where uas's
// time goes (transport or core) and whether a change moved it.
//
//   node bench/serve-in-process.mjs [--rounds 12] [--requests 50000]
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { execFileSync } from 'node:child_process';
import { Duplex } from 'node:stream';
import { setImmediate } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createEmulator } from '../dist/internal/emulator.js';
import { fromCore } from '../dist/internal/transport/core-answer.js';
import { createHttpTransport } from '../dist/internal/transport/http-transport.js';
import { createMinimalServer } from './minimal-server.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '12' },
    requests: { type: 'string', default: '50000' },
    // Internal: time one server (by index) in this process and print µs per request.
    one: { type: 'string' },
  },
});
const rounds = Number(values.rounds);
const requests = Number(values.requests);

const config = JSON.parse(
  readFileSync(new URL('../fixtures/uas.config.json', import.meta.url), 'utf8'),
);
const large = { burst: 1_000_000_000, rate: '1000000000/s' };
const headersOf = (remaining) => ({
  'uas-bucket': 'client:demo',
  'ratelimit-policy': '"client";q=1000000000;w=1',
  ratelimit: `"client";r=${remaining};t=0`,
  'content-type': 'application/json',
});

/** The servers, as bench:serve runs them (the same code, in this process). */
function servers() {
  const body = JSON.stringify({ exists: true, token_count: 2 });
  let remaining = 999_999_999;
  const bare = createServer((req, res) => {
    res.writeHead(200, { ...headersOf(remaining--), 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  const emulator = createEmulator({
    config: { ...config, limits: { ...config.limits, client: large } },
  });
  const fixed = {
    ...emulator,
    handle: () => ({
      status: 200,
      headers: headersOf(remaining--),
      body: { exists: true, token_count: 2 },
      delayMs: 0,
    }),
  };
  return [
    ['bare, uas headers', bare],
    ['minimal emulator, allowed', createMinimalServer(large.burst, 1_000_000_000)],
    ['uas transport, fixed answer', createHttpTransport(fixed).server],
    ['uas fast engine, allowed', createHttpTransport(emulator).server],
  ];
}

const REQUEST = Buffer.from(
  'GET /v1/users/exists?email=alice%40example.com HTTP/1.1\r\nHost: 127.0.0.1:3000\r\n' +
    'Authorization: Bearer uas-demo-token\r\nUser-Agent: bench\r\n\r\n',
);

/** Sends `count` requests over one in-memory connection, each once the last is answered. */
function drive(server, count) {
  return new Promise((resolve, reject) => {
    let answered = 0;
    const socket = new Duplex({
      read() {},
      write(chunk, _encoding, callback) {
        const text = chunk.toString('latin1');
        for (
          let at = text.indexOf('HTTP/1.1 ');
          at !== -1;
          at = text.indexOf('HTTP/1.1 ', at + 1)
        ) {
          if (text.slice(at + 9, at + 12) !== '200') reject(new Error(text.slice(at, at + 200)));
          answered++;
        }
        callback();
        if (answered >= count) {
          socket.destroy();
          resolve();
        } else setImmediate(() => socket.push(REQUEST));
      },
    });
    Object.assign(socket, {
      remoteAddress: '127.0.0.1',
      remotePort: 1,
      setTimeout: () => socket,
      setNoDelay: () => socket,
      setKeepAlive: () => socket,
    });
    server.emit('connection', socket);
    socket.push(REQUEST);
  });
}

/**
 * The core alone: the default engine's handle() and the serialising of its answer, called in a
 * loop with the benchmark's request, no HTTP. What a change to the core moves, without the
 * noise of the socket layer.
 */
function timeCore(count) {
  const emulator = createEmulator({
    config: { ...config, limits: { ...config.limits, client: large } },
  });
  const request = {
    method: 'GET',
    url: '/v1/users/exists?email=alice%40example.com',
    headers: { host: '127.0.0.1:3000', authorization: 'Bearer uas-demo-token', 'user-agent': 'b' },
  };
  for (let index = 0; index < count; index++) fromCore(emulator.handle({ ...request }));
  const started = process.hrtime.bigint();
  for (let index = 0; index < count; index++) fromCore(emulator.handle({ ...request }));
  return Number(process.hrtime.bigint() - started) / count / 1000;
}

if (values.one === 'core') {
  console.log(timeCore(requests * 4));
  process.exit(0);
}

if (values.one !== undefined) {
  const [, server] = servers()[Number(values.one)];
  await drive(server, requests);
  const started = process.hrtime.bigint();
  await drive(server, requests);
  console.log(Number(process.hrtime.bigint() - started) / requests / 1000);
  process.exit(0);
}

console.log(
  `bench:serve:in-process: ${rounds} rounds of ${requests} requests per server, node ${process.version}`,
);
const all = servers();
const times = all.map(() => []);
// Each server runs in a process of its own (their heaps do not meet), after a warm-up; the servers
// take turns, round by round, so a drift in the machine's speed reaches them all.
const self = fileURLToPath(import.meta.url);
for (let round = 0; round < rounds; round++) {
  for (const index of all.keys()) {
    const args = [self, '--one', String(index), '--requests', String(requests)];
    times[index].push(Number(execFileSync(process.execPath, args, { encoding: 'utf8' })));
  }
}
const core = [];
for (let round = 0; round < rounds; round++) {
  const args = [self, '--one', 'core', '--requests', String(requests)];
  core.push(Number(execFileSync(process.execPath, args, { encoding: 'utf8' })));
}
const bareBest = Math.min(...times[0]);
console.log('');
console.log('| server                      | fastest µs/req | median µs/req | over bare µs |');
console.log('| --------------------------- | -------------- | ------------- | ------------ |');
for (const [index, [name]] of all.entries()) {
  const sorted = [...times[index]].sort((a, b) => a - b);
  const best = sorted[0];
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  console.log(
    `| ${name.padEnd(27)} | ${best.toFixed(2).padEnd(14)} | ${median.toFixed(2).padEnd(13)} | ${(best - bareBest).toFixed(2).padEnd(12)} |`,
  );
}
const coreSorted = [...core].sort((a, b) => a - b);
console.log('');
console.log(
  `the core alone (handle() and its answer serialised, in a loop): fastest ${coreSorted[0].toFixed(2)} µs per request, median ${coreSorted[Math.floor((coreSorted.length - 1) / 2)].toFixed(2)}`,
);
process.exit(0);
