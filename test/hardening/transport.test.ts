import type { Socket } from 'node:net';
import { setImmediate as turn } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { listen, type EmulatorHttpServer } from '../../src/adapters/http/http-server.js';
import { createMswEngine } from '../../src/adapters/msw/msw-engine.js';
import type { Emulator } from '../../src/core/emulator.js';
import { createManualClock } from '../../src/core/time/clock.js';
import { DEMO_CONFIG, DEMO_MERCHANT, DEMO_TOKEN } from '../../src/demo-config.js';
import { createEmulator, type EmulatorOptions } from '../../src/emulator.js';
import type { HttpTransportOptions } from '../../src/transport/http-transport.js';
import { eventually } from '../helpers/eventually.js';
import { destroySockets, openSocket, rawRequest, type RawAnswer } from '../helpers/raw-http.js';

const ENGINES = [
  { name: 'default engine', engine: () => undefined },
  { name: 'msw engine', engine: (emulator: Emulator) => createMswEngine(emulator) },
];

let running: EmulatorHttpServer | undefined;
afterEach(async () => {
  destroySockets();
  await running?.close(100);
  running = undefined;
});

const EXISTS = '/v1/users/exists?email=alice%40example.com';
const AUTH = `Authorization: Bearer ${DEMO_TOKEN}\r\n`;

describe.each(ENGINES)('the transport, $name', ({ engine }) => {
  async function start(
    options: EmulatorOptions = {},
    transport: Omit<HttpTransportOptions, 'engine'> = {},
  ) {
    const emulator = createEmulator({ config: DEMO_CONFIG, ...options });
    running = await listen(emulator, 0, '127.0.0.1', { ...transport, engine: engine(emulator) });
    return { emulator, port: Number(new URL(running.url).port) };
  }

  /** What a client can tell of an answer: status, problem type, Allow, and whether it closed. */
  const shape = (answer: RawAnswer) => ({
    status: answer.status,
    type:
      answer.status !== undefined && answer.status >= 400 ? problemType(answer.body) : undefined,
    contentType: answer.headers['content-type'],
    allow: answer.headers.allow,
    closed: answer.closed,
  });

  it.each([
    ['a request line that is not HTTP', 'NONSENSE\r\n\r\n', 400, 'malformed-http', true],
    [
      'a header name with a space',
      `GET ${EXISTS} HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n`,
      400,
      'malformed-http',
      true,
    ],
    [
      'broken chunked encoding',
      `POST /v1/merchants/${DEMO_MERCHANT}/users/passwordless/start HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n`,
      400,
      'malformed-http',
      true,
    ],
    [
      'a header block over 16 KiB',
      `GET ${EXISTS} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'header-fields-too-large',
      true,
    ],
    ['HTTP/1.1 without Host', `GET ${EXISTS} HTTP/1.1\r\n${AUTH}\r\n`, 400, 'malformed-http', true],
    [
      'CONNECT',
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      405,
      'method-not-allowed',
      true,
    ],
    [
      'TRACE on a service path',
      `TRACE ${EXISTS} HTTP/1.1\r\nHost: x\r\n\r\n`,
      405,
      'method-not-allowed',
      false,
    ],
    [
      'a body over the limit',
      `POST /v1/merchants/${DEMO_MERCHANT}/users/passwordless/start HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nContent-Length: 10000000\r\n\r\n${'x'.repeat(40_000)}`,
      413,
      'payload-too-large',
      true,
    ],
    [
      'an absolute-form target',
      `GET http://127.0.0.1${EXISTS} HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`,
      200,
      undefined,
      false,
    ],
    ['HTTP/1.0 without Host', `GET ${EXISTS} HTTP/1.0\r\n${AUTH}\r\n`, 200, undefined, true],
    ['the asterisk form', 'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n', 404, 'not-found', false],
    [
      'a Host that is not a host and port',
      'GET /__uas/codes/alice%40example.com HTTP/1.1\r\nHost: [::1]evil.example\r\n\r\n',
      400,
      'malformed-http',
      true,
    ],
  ] as const)(
    'answers %s with problem+json alike on both engines',
    async (_name, text, status, type, closed) => {
      const { port } = await start();
      const answer = await rawRequest(port, text);
      expect(shape(answer)).toMatchObject({
        status,
        type,
        contentType: status >= 400 ? 'application/problem+json' : 'application/json',
        closed,
      });
      if (status === 405) expect(answer.headers.allow).toBeDefined();
    },
  );

  it('says a URL too long counts with the headers, in a 431', async () => {
    const { port } = await start();
    const answer = await rawRequest(
      port,
      `GET ${EXISTS}&x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toMatchObject({
      type: 'urn:uas:problem:header-fields-too-large',
      detail: 'the request line and headers are over 16384 bytes',
    });
  });

  it.each([
    ['the asterisk form', 'OPTIONS *', '*'],
    [
      'an absolute form that is not http',
      'GET ftp://127.0.0.1/__uas/health',
      'ftp://127.0.0.1/__uas/health',
    ],
  ])('answers %s about the target as sent, on both engines', async (_name, line, instance) => {
    const { port } = await start();
    const answer = await rawRequest(port, `${line} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toMatchObject({ instance });
  });

  describe('a request pipelined after one answered by closing the connection', () => {
    const GHOST = JSON.stringify({ users: [{ email: 'ghost@example.com' }] });
    const START = `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`;
    const ghostAdded = (emulator: Emulator) =>
      (
        emulator.handle({
          method: 'GET',
          url: '/v1/users/exists?email=ghost%40example.com',
          headers: { authorization: `Bearer ${DEMO_TOKEN}` },
        }) as { body?: { exists?: boolean } }
      ).body?.exists;
    const pipelined = (first: string, headers = '') =>
      `${first}POST /__uas/users HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Content-Type: application/json\r\nContent-Length: ${GHOST.length}\r\n\r\n${GHOST}`;

    it.each([
      [
        'a body over the limit',
        `POST ${START} HTTP/1.1\r\nHost: x\r\nContent-Length: 20000\r\n\r\n${'x'.repeat(20_000)}`,
        413,
      ],
      [
        'a chunked body over the limit',
        `POST ${START} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4e20\r\n${'x'.repeat(20_000)}\r\n0\r\n\r\n`,
        413,
      ],
      [
        'a dev-API body under a foreign Host',
        `POST /__uas/reset HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
        403,
      ],
      [
        'a dev-API write from another origin',
        `POST /__uas/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
        403,
      ],
      ['HTTP/1.1 without Host', `GET ${EXISTS} HTTP/1.1\r\n${AUTH}\r\n`, 400],
      ['two Host lines', `GET ${EXISTS} HTTP/1.1\r\nHost: a\r\nHost: b\r\n${AUTH}\r\n`, 400],
      ['a malformed Host', `GET ${EXISTS} HTTP/1.1\r\nHost: a:b\r\n${AUTH}\r\n`, 400],
      [
        'an expectation uas does not meet',
        `GET ${EXISTS} HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n`,
        417,
      ],
    ])(
      'is not run after %s; those before it are run and answered',
      async (_name, first, status) => {
        const { emulator, port } = await start();
        // Two: the msw engine runs the second once the first is answered.
        const before = (id: string) =>
          `GET ${EXISTS}&caller_id=${id} HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`;
        const answer = await rawRequest(port, pipelined(`${before('b1')}${before('b2')}${first}`));
        const statuses = [...answer.text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1]);
        expect(statuses).toEqual(['200', '200', String(status)]);
        expect(answer.closed).toBe(true);
        expect(emulator.requests({ status: 200 }).map((record) => record.caller_id)).toEqual([
          'b1',
          'b2',
        ]);
        // The msw engine would run it on a later turn. A wait for something that must not
        // happen: there is no event to await, so it gives that turn 50 ms to show.
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(ghostAdded(emulator)).toBe(false);
      },
    );

    it('is not run after a dev-API body sent without the admin token', async () => {
      const { emulator, port } = await start({ devApi: { adminToken: 'admin-secret' } });
      const first = `POST /__uas/reset HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`;
      const answer = await rawRequest(
        port,
        pipelined(first, 'Authorization: Bearer admin-secret\r\n'),
      );
      expect(answer.status).toBe(401);
      expect(answer.closed).toBe(true);
      // A wait for something that must not happen (the ghost request run): nothing to await.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(ghostAdded(emulator)).toBe(false);
    });

    it('is not run behind an event stream, which never ends to let its answer out', async () => {
      const { emulator, port } = await start();
      const reader = openSocket(port);
      reader.write(pipelined('GET /__uas/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
      await new Promise((resolve) => reader.once('data', resolve));
      // A wait for something that must not happen (the ghost request run): nothing to await.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(ghostAdded(emulator)).toBe(false);
    });

    it('runs after a request before it that sends a body, in order, in the same write', async () => {
      const { port } = await start();
      const answer = await rawRequest(
        port,
        pipelined('', '') +
          `GET /v1/users/exists?email=ghost%40example.com HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`,
        300,
      );
      const bodies = answer.text.split('HTTP/1.1 ').slice(1);
      expect(bodies).toHaveLength(2);
      expect(bodies[1]).toContain('"exists":true');
    });

    it('is answered before a malformed request that comes in the same packet as its body', async () => {
      const { emulator, port } = await start();
      const answer = await rawRequest(port, `${pipelined('')}NONSENSE\r\n\r\n`);
      const statuses = [...answer.text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1]);
      expect(statuses).toEqual(['200', '400']);
      expect(ghostAdded(emulator)).toBe(true);
    });

    it('runs, with the one after it, before an unmet expectation read behind its body', async () => {
      const { emulator, port } = await start();
      const answer = await rawRequest(
        port,
        `${pipelined('')}GET /v1/users/exists?email=ghost%40example.com HTTP/1.1\r\nHost: x\r\n${AUTH}\r\nGET /__uas/health HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: foo\r\n\r\n`,
        2_000,
      );
      const statuses = [...answer.text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1]);
      expect(statuses).toEqual(['200', '200', '417']);
      expect(answer.text).toContain('"exists":true');
      expect(answer.closed).toBe(true);
      expect(ghostAdded(emulator)).toBe(true);
    });

    it('closes, once the stream before it ends, a half-closed connection it was read on', async () => {
      const { port } = await start();
      const reader = openSocket(port, true);
      reader.resume();
      reader.write(
        'GET /__uas/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /__uas/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      );
      await new Promise((resolve) => reader.once('data', resolve));
      const closed = new Promise((resolve) => reader.once('close', () => resolve('closed')));
      reader.end();
      const outcome = await Promise.race([
        closed,
        new Promise((resolve) => setTimeout(() => resolve('still open'), 2_000)),
      ]);
      expect(outcome).toBe('closed');
    });

    it('is run, and answered, after an answer that keeps the connection (the harness can fail)', async () => {
      const { emulator, port } = await start();
      const answer = await rawRequest(
        port,
        pipelined('GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
        300,
      );
      const statuses = [...answer.text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1]);
      expect(statuses).toEqual(['404', '200']);
      expect(ghostAdded(emulator)).toBe(true);
    });
  });

  it('closes a connection that sends nothing, even when the client never closes its side', async () => {
    const { port } = await start({}, { headersTimeoutMs: 200, connectionsCheckingIntervalMs: 50 });
    // They read what comes (a 408) but never send a byte nor close their side.
    const idle = Array.from({ length: 20 }, () => openSocket(port, true).resume());
    const ended = idle.map((socket) => new Promise((resolve) => socket.once('end', resolve)));
    await eventually(async () => (await connections()) === 20, 2_000);
    await Promise.all(ended);
    // The clients keep their side open; the server must not keep its descriptors for them.
    await eventually(async () => (await connections()) === 0, 5_000);
    expect(idle.every((socket) => !socket.destroyed)).toBe(true);
    expect(await connections()).toBe(0);
  });

  it('cuts off an event reader that never reads, counts it, and keeps serving one that does', async () => {
    const { emulator, port } = await start({ eventQueueBytes: 64 * 1024 });
    const stalled = openSocket(port);
    stalled.write(`GET /__uas/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    const stalledClosed = new Promise((resolve) => stalled.once('close', resolve));
    stalled.pause();
    const healthy = openSocket(port);
    let healthyBytes = 0;
    healthy.on('data', (chunk: Buffer) => (healthyBytes += chunk.length));
    healthy.write(`GET /__uas/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await eventually(() => readers(emulator) === 2, 2_000);
    // Events come in bursts (of about 15 KiB, well under the queue) between turns of the event
    // loop, as requests do.
    let sent = 0;
    while (dropped(emulator) === 0 && sent < 400_000) {
      for (let index = 0; index < 20; index++, sent++)
        emulator.handle({
          method: 'GET',
          url: EXISTS,
          headers: { authorization: `Bearer ${DEMO_TOKEN}` },
        });
      await turn();
    }
    expect(dropped(emulator)).toBe(1);
    // The server closes the connection at once, though the reader still reads nothing.
    await eventually(async () => (await connections()) === 1, 2_000);
    stalled.resume();
    await stalledClosed;
    expect(readers(emulator)).toBe(1);
    const before = healthyBytes;
    emulator.handle({ method: 'GET', url: EXISTS, headers: {} });
    await eventually(() => healthyBytes > before, 2_000);
  });

  it('refuses more event readers than allowed at once, with 503 and Retry-After', async () => {
    const { port } = await start({ maxEventReaders: 2 });
    for (let index = 0; index < 2; index++) {
      const reader = openSocket(port);
      reader.write('GET /__uas/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await new Promise((resolve) => reader.once('data', resolve));
    }
    const third = await rawRequest(port, 'GET /__uas/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(third.status).toBe(503);
    expect(third.headers['retry-after']).toBe('5');
    expect(problemType(third.body)).toBe('too-many-event-readers');
  });

  it('ends event streams at shutdown instead of waiting out the grace period', async () => {
    const { port } = await start();
    const reader = openSocket(port);
    reader.write(`GET /__uas/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await new Promise((resolve) => reader.once('data', resolve));
    const started = performance.now();
    await running!.close(3_000);
    running = undefined;
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('answers requests waiting on their latency at once at shutdown, every pipelined one, the last closing', async () => {
    const { emulator, port } = await start({
      config: { ...DEMO_CONFIG, behavior: { latency: '60s' } },
    });
    const request = (index: number) =>
      `GET ${EXISTS}&caller_id=p${index} HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`;
    const answer = await shutDownDuring(emulator, port, [0, 1, 2].map(request).join(''));
    const heads = answer.text.split('HTTP/1.1 ').slice(1);
    expect(heads.map((head) => head.slice(0, 3))).toEqual(['200', '200', '200']);
    // Only the last closes the connection: an earlier `Connection: close` would lose the rest.
    expect(heads.map((head) => /\r\nconnection: close\r\n/i.test(head))).toEqual([
      false,
      false,
      true,
    ]);
    expect(answer.closed).toBe(true);
    expect(
      emulator
        .requests({ status: 200 })
        .map((record) => record.caller_id)
        .sort(),
    ).toEqual(['p0', 'p1', 'p2']);
  });

  it('ends at shutdown a connection whose last answer went out before, behind a delayed one', async () => {
    const { emulator, port } = await start();
    emulator.failNext({ operation: 'exists', latencyMs: 60_000, count: 1 });
    const request = `GET ${EXISTS} HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`;
    const answer = await shutDownDuring(emulator, port, request.repeat(3));
    expect([...answer.text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1])).toEqual([
      '200',
      '200',
      '200',
    ]);
    expect(answer.closed).toBe(true);
  });

  it('gives an answer queued behind a slow one its time to go out from when it can', async () => {
    const { emulator, port } = await start({}, { stalledAnswerMs: 300 });
    emulator.failNext({ operation: 'exists', latencyMs: 1_000, count: 1 });
    const answer = await rawRequest(
      port,
      `GET ${EXISTS} HTTP/1.1\r\nHost: x\r\n${AUTH}\r\nGET /__uas/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
      300,
    );
    const statuses = [...answer.text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1]);
    expect(statuses).toEqual(['200', '200']);
    expect(answer.closed).toBe(false);
  });

  it('serves one event stream per connection: one pipelined behind another holds no place', async () => {
    const { emulator, port } = await start({ maxEventReaders: 2 });
    const greedy = openSocket(port);
    greedy.write('GET /__uas/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'.repeat(3));
    await new Promise((resolve) => greedy.once('data', resolve));
    await eventually(() => readers(emulator) === 1, 2_000);
    const other = await rawRequest(port, 'GET /__uas/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(other.status).toBe(200);
  });

  it('answers pipelined requests in order, then the bad one, even when an answer waits', async () => {
    const { port } = await start({ config: { ...DEMO_CONFIG, behavior: { latency: '100ms' } } });
    const answer = await rawRequest(
      port,
      `GET ${EXISTS} HTTP/1.1\r\nHost: x\r\n${AUTH}\r\nNONSENSE\r\n\r\n`,
      400,
    );
    const statuses = [...answer.text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1]);
    expect(statuses).toEqual(['200', '400']);
  });

  it.each([
    ['a line that is not HTTP', 'XX\r\n\r\n', '400'],
    ['a header block over 16 KiB', `GET / HTTP/1.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, '431'],
    ['CONNECT', 'CONNECT a:1 HTTP/1.1\r\nHost: a:1\r\n\r\n', '405'],
  ])(
    'answers every pipelined request before %s, with or without a latency or a half-close',
    async (_name, bad, status) => {
      for (const [latency, halfClose] of [
        ['0ms', false],
        ['50ms', false],
        ['0ms', true],
        ['50ms', true],
      ] as const) {
        const { emulator, port } = await start({
          config: { ...DEMO_CONFIG, behavior: { latency } },
        });
        const request = `GET ${EXISTS}&caller_id=pipe HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`;
        // Read until the server closes the connection after the refusal (the window after the
        // first answer is only a bound): a loaded machine may take long over the latencies.
        const answer = await rawRequest(port, `${request.repeat(4)}${bad}`, 10_000, halfClose);
        const statuses = [...answer.text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1]);
        // Every request that ran (and took a token) has its answer, in order, then the refusal,
        // also when the client closed its side after sending them.
        const when = `latency ${latency}${halfClose ? ', half-closed' : ''}`;
        expect(statuses, when).toEqual(['200', '200', '200', '200', status]);
        expect(emulator.requests({ status: 200 })).toHaveLength(4);
        await running?.close(100);
        running = undefined;
      }
    },
  );

  it('lives on when a client resets its connection while the answers before its CONNECT wait', async () => {
    const clock = createManualClock(Date.UTC(2026, 0, 1));
    const { port } = await start({
      clock,
      config: { ...DEMO_CONFIG, behavior: { latency: '100ms' } },
    });
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => void uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    onTestFinished(() => void process.off('uncaughtException', onUncaught));
    const socket = openSocket(port);
    socket.write(
      `GET ${EXISTS} HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`.repeat(3) +
        'CONNECT a:1 HTTP/1.1\r\nHost: a:1\r\n\r\n',
    );
    await eventually(() => clock.sleepers > 0, 2_000);
    const gone = new Promise((resolve) => socket.once('close', resolve));
    socket.resetAndDestroy();
    await gone;
    await turn();
    // The answers go out to a connection the client reset: Node handed the socket to the
    // CONNECT listener without its error listener, and ECONNRESET or EPIPE ended the process.
    clock.advance(100);
    await eventually(() => clock.sleepers === 0, 2_000);
    await turn();
    const after = rawRequest(port, `GET /__uas/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    expect((await after).status).toBe(200);
    expect(uncaught).toEqual([]);
  });

  it.each([
    // Small answers (about 30 KB) fit the socket's buffers one by one: those queued behind them
    // are closed after stalledAnswerMs.
    { limit: 10, requests: 300, stalledAnswerMs: 300 },
    // Large ones (about 3 MB) pass the bytes a connection may have queued: closed at once.
    { limit: 1000, requests: 20, stalledAnswerMs: 60_000 },
  ])(
    'closes a pipelining connection that never reads its answers (journal?limit=$limit)',
    async ({ limit, requests, stalledAnswerMs }) => {
      const { emulator, port } = await start(
        { config: { ...DEMO_CONFIG, journal: { size: 'unbounded' } } },
        { stalledAnswerMs },
      );
      fillJournal(emulator, 400);
      // The server's side of the connection: the paused client would not notice it closing.
      const closed = new Promise((resolve) =>
        running!.server.once('connection', (socket) => socket.once('close', resolve)),
      );
      const reader = openSocket(port, true);
      reader.pause();
      reader.write(
        `GET /__uas/journal?limit=${limit} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`.repeat(requests),
      );
      const result = await Promise.race([
        closed.then(() => 'closed'),
        new Promise((resolve) => setTimeout(() => resolve('still open'), 5_000)),
      ]);
      expect(result).toBe('closed');
      if (requests === 20) {
        // Requests read with the others after the connection was closed are not run.
        const lateClosed = new Promise((resolve) =>
          running!.server.once('connection', (socket) => socket.once('close', resolve)),
        );
        const late = openSocket(port, true);
        late.pause();
        late.write(
          `${'GET /__uas/journal?limit=1000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'.repeat(20)}GET ${EXISTS}&caller_id=late HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`,
        );
        await lateClosed;
        // A wait for something that must not happen (the late request run): nothing to await.
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(emulator.requests({ callerId: 'late' })).toHaveLength(0);
      }
    },
  );

  it('closes connections past the bytes all connections together may have queued', async () => {
    const { emulator, port } = await start(
      { config: { ...DEMO_CONFIG, journal: { size: 'unbounded' } } },
      { stalledAnswerMs: 60_000 },
    );
    fillJournal(emulator, 400);
    const closed: Promise<void>[] = [];
    running!.server.on('connection', (socket) =>
      closed.push(new Promise((resolve) => socket.once('close', () => resolve()))),
    );
    // Each connection queues four answers of about 3 MB behind the one it is sent: 12 MB, under
    // the 16 MiB a connection may queue; six of them pass the 64 MiB of all together.
    for (let index = 0; index < 6; index++) {
      const reader = openSocket(port, true);
      reader.pause();
      reader.write('GET /__uas/journal?limit=400 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'.repeat(5));
    }
    await eventually(() => closed.length === 6, 5_000);
    const first = await Promise.race([
      Promise.race(closed).then(() => 'closed'),
      new Promise((resolve) => setTimeout(() => resolve('all open'), 5_000)),
    ]);
    expect(first).toBe('closed');
  });

  it('lets a connection closed with answers queued go at once, not when their timers would fire', async () => {
    const { emulator, port } = await start(
      { config: { ...DEMO_CONFIG, journal: { size: 'unbounded' } } },
      { stalledAnswerMs: 60_000 },
    );
    fillJournal(emulator, 400);
    let served: WeakRef<Socket> | undefined;
    const closed = new Promise<void>((resolve) =>
      running!.server.once('connection', (socket: Socket) => {
        served = new WeakRef(socket);
        socket.once('close', () => resolve());
      }),
    );
    const reader = openSocket(port, true);
    reader.pause();
    // Seven answers of about 3 MB queued pass the 16 MiB a connection may queue: closed at once.
    reader.write('GET /__uas/journal?limit=400 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'.repeat(8));
    await closed;
    reader.destroy();
    const gc = collectGarbage();
    // The collector offers no event to await: it is run, and the reference looked at, until it
    // is gone (at most 20 times, 20 ms apart).
    for (let attempt = 0; attempt < 20 && served?.deref() !== undefined; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      gc();
    }
    // Held by nothing: the answers queued on it (about 20 MB) are garbage too.
    expect(served?.deref()).toBeUndefined();
  });

  it('frees the slot of an event reader as soon as it closes its side', async () => {
    const { emulator, port } = await start({ maxEventReaders: 1 });
    const reader = openSocket(port, true);
    reader.write('GET /__uas/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await new Promise((resolve) => reader.once('data', resolve));
    expect(readers(emulator)).toBe(1);
    // Half-closed, as a client that exits does; no heartbeat is due for 15 s.
    reader.end();
    await eventually(() => readers(emulator) === 0, 2_000);
    // Also when the stream answers a pipelined request, and the client closed before it began.
    const pipelined = openSocket(port, true);
    pipelined.resume();
    const ended = new Promise((resolve) => pipelined.once('close', resolve));
    pipelined.end(
      'GET /__uas/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /__uas/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    );
    // The server ends the stream, and so the connection, at once: no heartbeat is due for 15 s.
    await ended;
    expect(readers(emulator)).toBe(0);
    const next = openSocket(port);
    next.write('GET /__uas/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const head = await new Promise<string>((resolve) =>
      next.once('data', (chunk: Buffer) => resolve(chunk.toString())),
    );
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('still answers a client that sends its request and closes its side', async () => {
    const { port } = await start({ config: { ...DEMO_CONFIG, behavior: { latency: '100ms' } } });
    const socket = openSocket(port, true);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.end(`GET ${EXISTS} HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`);
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('refuses a body over the limit as soon as its length is announced, without waiting for it', async () => {
    const { port } = await start();
    const started = performance.now();
    const answer = await rawRequest(
      port,
      `POST /v1/merchants/${DEMO_MERCHANT}/users/passwordless/start HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n`,
    );
    expect(answer.status).toBe(413);
    expect(answer.closed).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
    const continued = await rawRequest(
      port,
      `POST /v1/merchants/${DEMO_MERCHANT}/users/passwordless/start HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nContent-Length: 1000000000\r\nExpect: 100-continue\r\n\r\n`,
    );
    expect(continued.text).not.toContain('100 Continue');
    expect(continued.status).toBe(413);
    const bogus = await rawRequest(
      port,
      `GET ${EXISTS} HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\n\r\n`,
    );
    expect(bogus.status).toBe(417);
    expect(problemType(bogus.body)).toBe('expectation-failed');
  });

  it('refuses an unauthorised dev-API body before reading it', async () => {
    const { port } = await start({ devApi: { adminToken: 'admin-secret' } });
    const started = performance.now();
    // 15 MiB announced, none sent: without the token, the server does not wait for it.
    const answer = await rawRequest(
      port,
      'POST /__uas/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 15728640\r\n\r\n',
    );
    expect(answer.status).toBe(401);
    expect(answer.closed).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('reads the same path as the msw engine does: dot segments cannot get past the Host check', async () => {
    const { port } = await start();
    for (const target of ['/v1/../__uas/codes', '/v1/%2e%2e/__uas/codes', '/x\\..\\__uas/codes']) {
      const answer = await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: evil.example\r\n\r\n`);
      expect(answer.status, target).toBe(403);
      expect(problemType(answer.body), target).toBe('host-not-allowed');
    }
  });

  it('refuses several Host headers, and takes a JSON body after a byte-order mark', async () => {
    const { port } = await start();
    const twice = await rawRequest(
      port,
      `GET ${EXISTS} HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n${AUTH}\r\n`,
    );
    expect(twice.status).toBe(400);
    const body = '\uFEFF{"email":"alice@example.com"}';
    const bom = await rawRequest(
      port,
      `POST /v1/merchants/${DEMO_MERCHANT}/users/passwordless/start HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    expect(bom.status).toBe(200);
  });

  it('says a body sent without a Content-Type came without one, on the service and the dev API', async () => {
    const { port } = await start();
    const body = '{"email":"alice@example.com"}';
    const start415 = await rawRequest(
      port,
      `POST /v1/merchants/${DEMO_MERCHANT}/users/passwordless/start HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(start415.status).toBe(415);
    expect(JSON.parse(start415.body).detail).toMatch(/got no Content-Type$/);
    const faults = await rawRequest(
      port,
      `POST /__uas/faults HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 14\r\n\r\n{"status":503}`,
    );
    expect(faults.status).toBe(415);
    expect(JSON.parse(faults.body).detail).toMatch(/got no Content-Type$/);
  });

  it('refuses a body in a coding it does not read: compressed, or a transfer coding before chunked', async () => {
    const { port } = await start();
    const body = '{"email":"alice@example.com"}';
    const head = `POST /v1/merchants/${DEMO_MERCHANT}/users/passwordless/start HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\n`;
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const gzipChunked = await rawRequest(
      port,
      `${head}Transfer-Encoding: gzip, chunked\r\n\r\n${chunked}`,
    );
    expect(shape(gzipChunked)).toMatchObject({ status: 400, type: 'malformed-http', closed: true });
    expect(JSON.parse(gzipChunked.body).detail).toBe(
      'the server reads no transfer coding but chunked; got Transfer-Encoding "gzip, chunked"',
    );
    const compressed = await rawRequest(
      port,
      `${head}Content-Encoding: gzip\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(compressed.status).toBe(415);
    expect(JSON.parse(compressed.body).detail).toBe(
      'send the JSON body uncompressed: no content coding is read; got Content-Encoding "gzip"',
    );
    // Chunked alone, and the identity coding, are read.
    expect(
      (await rawRequest(port, `${head}Transfer-Encoding: Chunked\r\n\r\n${chunked}`)).status,
    ).toBe(200);
    const identity = `${head}Content-Encoding: identity\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    expect((await rawRequest(port, identity)).status).toBe(200);
  });

  it('answers a body nested too deep with 400, not a failure', async () => {
    const { port } = await start();
    const body = `{"email":"alice@example.com","x":${'['.repeat(5_000)}${']'.repeat(5_000)}}`;
    const answer = await rawRequest(
      port,
      `POST /v1/merchants/${DEMO_MERCHANT}/users/passwordless/start HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).detail).toContain('deeper than 64 levels');
  });

  it('closes the connection of a client that never takes a large answer', async () => {
    const { emulator, port } = await start(
      { config: { ...DEMO_CONFIG, journal: { size: 'unbounded' } } },
      { stalledAnswerMs: 300 },
    );
    fillJournal(emulator, 4_000);
    const reader = openSocket(port);
    reader.write('GET /__uas/journal?limit=100000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    reader.pause();
    await eventually(async () => (await connections()) === 1, 2_000);
    await eventually(async () => (await connections()) === 0, 5_000);
  });

  describe('the dev API against web pages', () => {
    const ALICE_CODE = '/__uas/codes/alice%40example.com';

    it('refuses a Host that is not a loopback name (DNS rebinding), unless allowed', async () => {
      const { port } = await start({}, { allowedHosts: ['uas.internal'] });
      const ask = (host: string) =>
        rawRequest(port, `GET ${ALICE_CODE} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      const foreign = await ask('evil.example:80');
      expect(foreign.status).toBe(403);
      expect(problemType(foreign.body)).toBe('host-not-allowed');
      expect(foreign.body).not.toMatch(/"code":"\d+"/);
      for (const host of ['[::1]evil.example', 'localhost:evil.example', '127.0.0.1:80:80']) {
        const malformed = await ask(host);
        expect(malformed.status, host).toBe(400);
        expect(malformed.body).not.toMatch(/"code":"\d+"/);
      }
      for (const host of [
        `127.0.0.1:${port}`,
        `localhost:${port}`,
        `[::1]:${port}`,
        'uas.internal:4010',
        'app.localhost',
        'a.b.localhost',
      ])
        expect((await ask(host)).status, host).toBe(404); // code-not-found: the request got through
    });

    it('answers any Host when an admin token guards the dev API', async () => {
      const { port } = await start({ devApi: { adminToken: 'admin-secret' } });
      const answer = await rawRequest(
        port,
        `GET ${ALICE_CODE} HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer admin-secret\r\n\r\n`,
      );
      expect(answer.status).toBe(404);
    });

    it('refuses writes from another origin and bodies that are not JSON, and changes nothing', async () => {
      const { emulator, port } = await start();
      const users = JSON.stringify({ users: [{ email: 'mallory@example.com' }] });
      const post = (headers: string) =>
        rawRequest(
          port,
          `POST /__uas/users HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers}Content-Length: ${users.length}\r\n\r\n${users}`,
        );
      // A cross-site form or fetch(mode: 'no-cors') posts text/plain without a preflight.
      const csrf = await post('Origin: http://evil.example\r\nContent-Type: text/plain\r\n');
      expect(csrf.status).toBe(403);
      expect(problemType(csrf.body)).toBe('cross-origin-refused');
      const crossSite = await post(
        'Sec-Fetch-Site: cross-site\r\nContent-Type: application/json\r\n',
      );
      expect(crossSite.status).toBe(403);
      const plain = await post('Content-Type: text/plain\r\n');
      expect(plain.status).toBe(415);
      // Routes that read no body refuse one that is not JSON too: a form cannot reset.
      await rawRequest(port, `GET ${EXISTS}&caller_id=kept HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`);
      for (const [method, path] of [
        ['POST', '/__uas/reset'],
        ['DELETE', '/__uas/buckets'],
      ]) {
        const form = await rawRequest(
          port,
          `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\n\r\na=b`,
        );
        expect(form.status, path).toBe(415);
      }
      expect(emulator.requests({ callerId: 'kept' })).toHaveLength(1);
      // A GET's body is ignored (the msw engine's Fetch request drops it): read alike.
      const read = await rawRequest(
        port,
        `GET /__uas/buckets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 1\r\n\r\nx`,
      );
      expect(read.status).toBe(200);
      const buckets = await rawRequest(
        port,
        `GET /__uas/buckets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
      );
      expect(buckets.body).toContain('kept');
      expect(
        emulator.handle({
          method: 'GET',
          url: '/v1/users/exists?email=mallory%40example.com',
          headers: { authorization: `Bearer ${DEMO_TOKEN}` },
        }).body,
      ).toMatchObject({ exists: false });
      const sameOrigin = await post(
        `Origin: http://127.0.0.1:${port}\r\nContent-Type: application/json\r\n`,
      );
      expect(sameOrigin.status).toBe(200);
    });
  });

  /**
   * Sends `text` on a connection, shuts the server down once a request of it has run (the
   * default engine runs them all at once, the msw engine the first), and returns what the client
   * got. The shutdown takes under a second.
   */
  async function shutDownDuring(emulator: Emulator, port: number, text: string) {
    const pending = rawRequest(port, text, 5_000);
    await eventually(() => emulator.requests().length >= 1, 2_000);
    const started = performance.now();
    await running!.close(3_000);
    running = undefined;
    const answer = await pending;
    expect(performance.now() - started).toBeLessThan(1_000);
    return answer;
  }

  async function connections(): Promise<number> {
    return new Promise((resolve, reject) =>
      running!.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
  }
});

/** V8's garbage collector, exposed for this process. */
function collectGarbage(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function problemType(body: string): string | undefined {
  try {
    const type = (JSON.parse(body) as { type?: string }).type ?? '';
    return type.slice(type.lastIndexOf(':') + 1);
  } catch {
    return undefined;
  }
}

/** Journals `count` start requests of about 7.5 KB each, so journal answers are large. */
function fillJournal(emulator: Emulator, count: number): void {
  const padding = Object.fromEntries(
    Array.from({ length: 30 }, (_, index) => [`f${index}`, 'x'.repeat(250)]),
  );
  for (let index = 0; index < count; index++)
    emulator.handle({
      method: 'POST',
      url: `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`,
      headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.com', ...padding }),
    });
}

function readers(emulator: Emulator): number {
  return Number(/^uas_event_readers (\d+)$/m.exec(emulator.metrics())?.[1]);
}

function dropped(emulator: Emulator): number {
  return Number(/^uas_event_readers_dropped_total (\d+)$/m.exec(emulator.metrics())?.[1]);
}
