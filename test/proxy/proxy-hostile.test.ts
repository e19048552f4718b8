import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { connect, createServer as createNetServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Emulator } from '../../src/core/emulator.js';
import { DEMO_MERCHANT } from '../../src/demo-config.js';
import {
  answer,
  head,
  trickle,
  useHostileServers,
  type Misbehaviour,
} from '../helpers/hostile-server.js';
import { configWith, rawExchange, REAL_TOKEN, useInstances } from '../helpers/proxy-stand-in.js';
import { requireTool } from '../helpers/require-tool.js';
import { tempDir } from '../helpers/temp-dir.js';

const start = useInstances();
const hostile = useHostileServers();
const path = '/v1/users/exists?email=alice%40example.com';
const startPath = `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`;
const auth = { authorization: `Bearer ${REAL_TOKEN}` };

/** The proxy's answer to one request, with the upstream misbehaving as told. */
async function through(
  misbehave: Misbehaviour,
  options: { timeoutMs?: number; maxBodyBytes?: number } = {},
) {
  const real = await hostile(misbehave);
  const proxy = await start(configWith({ callerBurst: 5 }), { base: real.url, ...options });
  const reply = await rawExchange(`${proxy.url}${path}`, { headers: auth }).catch(
    (error: Error) => error,
  );
  return { real, proxy, reply };
}

function problemOf(reply: Awaited<ReturnType<typeof rawExchange>> | Error) {
  if (reply instanceof Error) throw reply;
  return {
    status: reply.status,
    problem: JSON.parse(reply.body.toString()) as Record<string, string>,
  };
}

/** openssl arguments for a self-signed certificate `<name>-cert.pem` naming `altName`. */
function certArgs(dir: string, name: string, altName: string): string[] {
  const prefix = name === '' ? '' : `${name}-`;
  return [
    ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2'],
    ...['-keyout', join(dir, `${prefix}key.pem`), '-out', join(dir, `${prefix}cert.pem`)],
    ...['-subj', '/CN=localhost', '-addext', `subjectAltName=${altName}`],
  ];
}

/**
 * Sends GETs of `targets` at once on one raw connection to `origin` (pipelined, as no fetch
 * client does), with the real token; the socket is returned, its errors ignored.
 */
function pipelined(origin: string, targets: string[]): Socket {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => {});
  const head = `HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: ${auth.authorization}\r\n\r\n`;
  socket.write(targets.map((target) => `GET ${target} ${head}`).join(''));
  return socket;
}

/**
 * Sends a request on a socket of its own and leaves once the real service has the request
 * forwarded (`seen` grows), before the answer can be whole: `reset` resets the connection, else
 * it is closed (which a server hears as a half-close until it writes).
 */
async function leaveAfter(url: string, seen: readonly unknown[], reset = false): Promise<void> {
  const socket = sendAlone(url);
  await expect.poll(() => seen.length).toBe(1);
  if (reset) socket.resetAndDestroy();
  else socket.destroy();
}

/** Sends a GET of `url` on a raw connection of its own; the socket is returned. */
function sendAlone(url: string): Socket {
  const { origin, pathname, search } = new URL(url);
  return pipelined(origin, [`${pathname}${search}`]);
}

/** A proxy in front of a real service that never answers (waited for up to 30 s). */
async function beforeSilentService() {
  const silent = await hostile(() => {});
  const waiting = await start(configWith({ callerBurst: 5 }), {
    base: silent.url,
    timeoutMs: 30_000,
  });
  return { silent, waiting };
}

/** The one record `proxy` journaled, which holds what `record` says. */
function expectOnlyRecord(proxy: { emulator: Emulator }, record: Record<string, unknown>): void {
  expect(proxy.emulator.requests()).toHaveLength(1);
  expect(proxy.emulator.requests()[0]).toMatchObject(record);
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('uas serve --upstream: a failing or hostile real service', () => {
  it('answers 502 naming the refused connection when nothing listens upstream, and journals it', async () => {
    const proxy = await start(configWith({ callerBurst: 5 }), {
      base: `http://127.0.0.1:${await closedPort()}`,
    });
    const { status, problem } = problemOf(
      await rawExchange(`${proxy.url}${path}`, { headers: auth }),
    );
    expect(status).toBe(502);
    expect(problem.type).toBe('urn:uas:problem:upstream-failed');
    expect(problem.detail).toMatch(/refused the connection \(ECONNREFUSED/);
    expect(proxy.emulator.requests()[0]).toMatchObject({
      status: 502,
      problem: 'upstream-failed',
      upstream: { answered_by: 'proxy' },
    });
  });

  it('answers 504 when the real service stalls past the timeout', async () => {
    const { reply } = await through(() => {}, { timeoutMs: 200 });
    const { status, problem } = problemOf(reply);
    expect(status).toBe(504);
    expect(problem.type).toBe('urn:uas:problem:upstream-timeout');
    expect(problem.detail).toMatch(/no answer within 200 ms/);
  });

  it('answers 502 naming the status for a 101 Switching Protocols or an informational status it cannot wait past', async () => {
    for (const [status, words] of [
      [101, 'Switching Protocols'],
      [199, 'Odd'],
    ] as const) {
      const { reply } = await through(
        (socket) =>
          socket.write(
            `HTTP/1.1 ${status} ${words}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n`,
          ),
        { timeoutMs: 5_000 },
      );
      const { status: answered, problem } = problemOf(reply);
      expect(answered).toBe(502);
      expect(problem.type).toBe('urn:uas:problem:upstream-failed');
      expect(problem.detail).toContain(`status ${status}`);
    }
  });

  it('adds its Via token to forwarded requests, and answers 508 to a request that comes back with it', async () => {
    const real = await hostile((socket) => answer(socket, 200, [], '{}'));
    const proxy = await start(configWith({ callerBurst: 5 }), { base: real.url });
    await rawExchange(`${proxy.url}${path}`, { headers: { ...auth, via: '1.0 edge' } });
    const via = real.requests[0]?.headers.via ?? '';
    expect(via).toMatch(/^1\.0 edge, 1\.1 uas-[0-9a-f]{12,}$/);
    const { status, problem } = problemOf(
      await rawExchange(`${proxy.url}${path}`, { headers: { ...auth, via } }),
    );
    expect(status).toBe(508);
    expect(problem.type).toBe('urn:uas:problem:loop-detected');
    expect(real.requests).toHaveLength(1);
  });

  it('relays a redirect as an answer and never follows it', async () => {
    const { real, reply } = await through((socket) =>
      answer(socket, 302, [['Location', 'http://127.0.0.1:1/elsewhere']]),
    );
    if (reply instanceof Error) throw reply;
    expect(reply.status).toBe(302);
    expect(reply.rawHeaders).toContain('http://127.0.0.1:1/elsewhere');
    expect(real.requests).toHaveLength(1);
  });

  it('answers 502 for junk in the headers (a control character), and for a header block over the limit', async () => {
    const junk = await through((socket) =>
      socket.end(
        Buffer.concat([
          head(200, [
            ['X-Junk', 'a\u0001b'],
            ['Content-Length', '0'],
          ]),
        ]),
      ),
    );
    expect(problemOf(junk.reply)).toMatchObject({ status: 502 });
    expect(problemOf(junk.reply).problem.detail).toMatch(/malformed HTTP/);
    const huge = await through((socket) => answer(socket, 200, [['X-Big', 'x'.repeat(20_000)]]));
    expect(problemOf(huge.reply).status).toBe(502);
  });

  it('answers 502 for a body announced over the limit, and cuts off one that passes it unannounced', async () => {
    const announced = await through((socket) => answer(socket, 200, [], 'y'.repeat(2_000)), {
      maxBodyBytes: 1_000,
    });
    expect(problemOf(announced.reply).problem.detail).toMatch(/announced 2000 bytes/);
    // No length announced: the body runs until the connection closes, past the limit.
    const endless = await through(
      (socket) => socket.end(Buffer.concat([head(200, []), Buffer.alloc(300_000, 'x')])),
      { maxBodyBytes: 100_000 },
    );
    expect(endless.reply).toBeInstanceOf(Error);
    expect(endless.proxy.emulator.requests()[0]).toMatchObject({
      status: 200,
      outcome: 'upstream-failed',
      upstream: { answered_by: 'upstream', cut: 'upstream' },
    });
  });

  it("relays a 304 whose Content-Length is its representation's, over the limit: a 304 has no body", async () => {
    const notModified = await through(
      (socket) => socket.write(head(304, [['Content-Length', '99999999']])),
      { maxBodyBytes: 1_000 },
    );
    expect(notModified.reply).toMatchObject({ status: 304 });
    expect(notModified.proxy.emulator.requests()[0]).toMatchObject({
      status: 304,
      upstream: { answered_by: 'upstream' },
    });
  });

  it('cuts the connection off when the real service cuts its body short, as the service did', async () => {
    const { reply, proxy } = await through((socket) =>
      socket.end(Buffer.concat([head(200, [['Content-Length', '100']]), Buffer.from('{"exi')])),
    );
    expect(reply).toBeInstanceOf(Error);
    await expect.poll(() => proxy.emulator.requests().length).toBe(1);
    // The status line said 200; the record says the answer failed, and who cut it.
    expect(proxy.emulator.requests()[0]).toMatchObject({
      status: 200,
      outcome: 'upstream-failed',
      upstream: { answered_by: 'upstream', cut: 'upstream' },
    });
  });

  it('journals an answer whole when it was, and marks one its client left before it began or ended', async () => {
    const whole = await through((socket) => answer(socket, 200, [], '{"exists":true}'));
    expect(whole.proxy.emulator.requests()[0]).toMatchObject({
      status: 200,
      outcome: 'allowed',
      upstream: { answered_by: 'upstream', cut: undefined },
    });
    // The real service answers nothing: the client resets its connection long before uas would
    // answer 504 (one that only closes its side is still answered: it may be waiting).
    const stalled = await hostile(() => {});
    const waiting = await start(configWith({ callerBurst: 5 }), {
      base: stalled.url,
      // Long enough that the client has surely left before it: a loaded machine cannot race it.
      timeoutMs: 2_000,
    });
    await leaveAfter(`${waiting.url}${path}`, stalled.requests, true);
    await expect.poll(() => waiting.emulator.requests().length, { timeout: 6_000 }).toBe(1);
    expect(waiting.emulator.requests()[0]).toMatchObject({
      status: 504,
      outcome: 'upstream-failed',
      upstream: { answered_by: 'proxy', cut: 'client' },
    });
    // The real service trickles its body: the client leaves in the middle of it.
    const slow = await hostile((socket) => trickle(socket, head(200, []), 20));
    const relaying = await start(configWith({ callerBurst: 5 }), { base: slow.url });
    await leaveAfter(`${relaying.url}${path}`, slow.requests);
    await expect.poll(() => relaying.emulator.requests().length, { timeout: 3_000 }).toBe(1);
    expect(relaying.emulator.requests()[0]).toMatchObject({
      status: 200,
      outcome: 'allowed',
      upstream: { answered_by: 'upstream', cut: 'client' },
    });
  });

  it('marks an answer still relayed when the grace at shutdown runs out as cut by the shutdown, not by its client', async () => {
    const slow = await hostile((socket) => trickle(socket, head(200, []), 20));
    const relaying = await start(configWith({ callerBurst: 5 }), { base: slow.url });
    const socket = sendAlone(`${relaying.url}${path}`);
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    // Its head and some of its body have reached the client, which stays.
    await expect.poll(() => Buffer.concat(received).toString()).toMatch(/^HTTP\/1\.1 200 /);
    const parts = received.length;
    await expect.poll(() => received.length).toBeGreaterThan(parts + 2);
    await relaying.server.close(50);
    // Journaled by the time the server has closed: uas serve stops its recording then.
    expectOnlyRecord(relaying, {
      status: 200,
      outcome: 'allowed',
      upstream: { answered_by: 'upstream', cut: 'shutdown' },
    });
    socket.destroy();
  });

  it('stops waiting for the real service when the grace at shutdown runs out, and journals the request as cut by the shutdown', async () => {
    const { silent, waiting } = await beforeSilentService();
    const socket = sendAlone(`${waiting.url}${path}`);
    await expect.poll(() => silent.requests.length).toBe(1);
    const started = performance.now();
    await waiting.server.close(50);
    // Not held until --upstream-timeout (30 s here), and journaled by the time it has closed.
    expect(performance.now() - started).toBeLessThan(5_000);
    expectOnlyRecord(waiting, {
      status: 503,
      outcome: 'upstream-failed',
      problem: 'service-unavailable',
      upstream: { answered_by: 'proxy', cut: 'shutdown' },
    });
    socket.destroy();
  });

  it('journals a request whose client reset its connection while the real service kept it waiting, when uas shuts down before it answers', async () => {
    // No connection is left open at shutdown: the server closes at once, but the request is
    // still waiting for the real service. It was lost (never journaled, never recorded).
    const { silent, waiting } = await beforeSilentService();
    await leaveAfter(`${waiting.url}${path}`, silent.requests, true);
    const connections = () =>
      new Promise<number>((resolve) =>
        waiting.server.server.getConnections((_, count) => resolve(count)),
      );
    await expect.poll(connections).toBe(0);
    const started = performance.now();
    await waiting.server.close(50);
    expect(performance.now() - started).toBeLessThan(5_000);
    expectOnlyRecord(waiting, {
      status: 503,
      outcome: 'upstream-failed',
      problem: 'service-unavailable',
      upstream: { answered_by: 'proxy', cut: 'client' },
    });
  });

  it('marks a request the real service keeps waiting as cut by its client when the client resets its connection during the grace at shutdown', async () => {
    const { silent, waiting } = await beforeSilentService();
    const socket = sendAlone(`${waiting.url}${path}`);
    await expect.poll(() => silent.requests.length).toBe(1);
    const closed = waiting.server.close(1_000);
    socket.resetAndDestroy();
    await closed;
    expectOnlyRecord(waiting, {
      status: 503,
      outcome: 'upstream-failed',
      problem: 'service-unavailable',
      upstream: { answered_by: 'proxy', cut: 'client' },
    });
  });

  it('keeps many requests waiting on the real service at once without a warning of a leak', async () => {
    const held: Array<() => void> = [];
    const slow = await hostile((socket) =>
      held.push(() => answer(socket, 200, [], '{"exists":true}')),
    );
    const proxy = await start(configWith({ callerBurst: 1_000, clientBurst: 1_000 }), {
      base: slow.url,
    });
    const warnings: string[] = [];
    const warned = (warning: Error) => warnings.push(warning.name);
    process.on('warning', warned);
    onTestFinished(() => void process.off('warning', warned));
    const replies = Array.from({ length: 20 }, () =>
      fetch(`${proxy.url}${path}`, { headers: auth }).then(async (reply) => {
        await reply.arrayBuffer();
        return reply.status;
      }),
    );
    await expect.poll(() => held.length).toBe(20);
    for (const release of held) release();
    expect(await Promise.all(replies)).toEqual(Array.from({ length: 20 }, () => 200));
    // A warning is emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual([]);
  });

  it('marks the answers queued behind another on a pipelined connection its client left: none reached it', async () => {
    // The first answer trickles; the second comes whole at once and waits behind it; the third
    // never ends and waits too. The client resets its connection: neither the second nor the
    // third was written, and each is journaled as cut by the client (the third at all).
    const real = await hostile((socket, request) => {
      if (request.path.includes('n=2')) answer(socket, 200, [], '{"exists":true}');
      else trickle(socket, head(200, []), 20);
    });
    const proxy = await start(configWith({ callerBurst: 5 }), { base: real.url });
    const socket = pipelined(
      proxy.url,
      [1, 2, 3].map((n) => `${path}&n=${n}`),
    );
    await expect.poll(() => real.requests.length).toBe(3);
    socket.resetAndDestroy();
    await expect.poll(() => proxy.emulator.requests().length, { timeout: 3_000 }).toBe(3);
    for (const record of proxy.emulator.requests())
      expect(record).toMatchObject({
        status: 200,
        outcome: 'allowed',
        upstream: { answered_by: 'upstream', cut: 'client' },
      });
  });

  it('marks an answer queued behind one the real service cut short as cut by the real service, not by its client', async () => {
    const real = await hostile((socket, request) => {
      if (request.path.includes('n=2')) answer(socket, 200, [], '{"exists":true}');
      else
        socket.end(Buffer.concat([head(200, [['Content-Length', '100']]), Buffer.from('{"exi')]));
    });
    const proxy = await start(configWith({ callerBurst: 5 }), { base: real.url });
    const socket = pipelined(
      proxy.url,
      [1, 2].map((n) => `${path}&n=${n}`),
    );
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.resume();
    // uas closes the connection as the real service cut the first answer: the client stays.
    await closed;
    await expect.poll(() => proxy.emulator.requests().length, { timeout: 3_000 }).toBe(2);
    for (const record of proxy.emulator.requests())
      expect(record).toMatchObject({
        status: 200,
        outcome: 'upstream-failed',
        upstream: { answered_by: 'upstream', cut: 'upstream' },
      });
  });

  it('numbers records in the order they are journaled, so paging by after_id misses none answered late', async () => {
    // The first request is answered once the second has been: it is journaled second.
    let release = () => {};
    const real = await hostile((socket, request) => {
      if (request.path.includes('slow')) release = () => answer(socket, 200, [], '{}');
      else answer(socket, 200, [], '{}');
    });
    const proxy = await start(configWith({ callerBurst: 5 }), { base: real.url });
    const slow = rawExchange(`${proxy.url}/v1/users/exists?email=slow%40example.com`, {
      headers: auth,
    });
    await expect.poll(() => real.requests.length).toBe(1);
    await rawExchange(`${proxy.url}/v1/users/exists?email=fast%40example.com`, { headers: auth });
    release();
    await slow;
    const page = async (after?: number) =>
      (
        await fetch(
          `${proxy.url}/__uas/requests?limit=1${after === undefined ? '' : `&after_id=${after}`}`,
        )
      ).json() as Promise<{
        requests: Array<{ id: number; email: string }>;
        next_after_id: number | null;
      }>;
    const first = await page();
    const second = await page(first.next_after_id ?? undefined);
    expect([...first.requests, ...second.requests].map((r) => `${r.id} ${r.email}`)).toEqual([
      '1 fast@example.com',
      '2 slow@example.com',
    ]);
  });

  it('sends a GET again when the kept-alive connection it went out on was closed by the real service, rather than answer 502', async () => {
    // The real service closes each connection once it has answered, without saying so first
    // (HTTP/1.1 lets it): a request that goes out on one as it closes never reaches it.
    const closing = await hostile((socket) => {
      answer(socket, 200, [], '{"exists":true}');
      socket.end();
    });
    const proxy = await start(configWith({ callerBurst: 1_000, clientBurst: 1_000 }), {
      base: closing.url,
    });
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        for (let index = 0; index < 15; index++) {
          const reply = await fetch(`${proxy.url}${path}`, { headers: auth });
          await reply.arrayBuffer();
          statuses.push(reply.status);
        }
      }),
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });

  it('sends a POST with an Idempotency-Key again when its kept-alive connection was closed by the real service', async () => {
    const closing = await hostile((socket) => {
      answer(socket, 200, [], '{}');
      socket.end();
    });
    const proxy = await start(configWith({ callerBurst: 1_000, clientBurst: 1_000 }), {
      base: closing.url,
    });
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 10 }, async (_, client) => {
        for (let index = 0; index < 15; index++) {
          const reply = await fetch(`${proxy.url}${startPath}`, {
            method: 'POST',
            headers: {
              ...auth,
              'content-type': 'application/json',
              'idempotency-key': `start-${client}-${index}`,
            },
            body: '{"email":"alice@example.com"}',
          });
          await reply.arrayBuffer();
          statuses.push(reply.status);
        }
      }),
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    // Each went out with its key, the copies sent again too.
    const keys = new Set(closing.requests.map((request) => request.headers['idempotency-key']));
    expect(keys.size).toBe(150);
  });

  it('says an https upstream that does not speak TLS does not, and never hints at --upstream-ca then', async () => {
    // Plain HTTP at once, whatever comes: a TLS client reads it as a wrong version number.
    const sockets = new Set<Socket>();
    const plain = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => plain.close(() => resolve()));
    });
    const proxy = await start(configWith({ callerBurst: 5 }), {
      base: `https://127.0.0.1:${(plain.address() as { port: number }).port}`,
    });
    const { status, problem } = problemOf(
      await rawExchange(`${proxy.url}${path}`, { headers: auth }),
    );
    expect(status).toBe(502);
    expect(problem.detail).toContain('does not speak TLS');
    expect(problem.detail).toContain('use http://');
    expect(problem.detail).not.toContain('--upstream-ca');
  });

  it('verifies TLS: a self-signed certificate is refused with 502, and trusted with a CA given', async () => {
    if (
      !requireTool(
        'openssl',
        spawnSync('openssl', ['version']).status === 0,
        'apt-get install openssl',
      )
    )
      return;
    const dir = tempDir('uas-tls-');
    execFileSync('openssl', certArgs(dir, '', 'IP:127.0.0.1'), { stdio: 'ignore' });
    const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    const server = createHttpsServer(
      { key: readFileSync(join(dir, 'key.pem')), cert },
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"exists":false,"token_count":0}');
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const base = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
    const untrusted = await start(configWith({ callerBurst: 5 }), { base });
    const refused = problemOf(await rawExchange(`${untrusted.url}${path}`, { headers: auth }));
    expect(refused.status).toBe(502);
    expect(refused.problem.detail).toMatch(/TLS/);
    expect(refused.problem.detail).toContain('use --upstream-ca');
    execFileSync('openssl', certArgs(dir, 'other', 'DNS:other.example'), { stdio: 'ignore' });
    const otherCert = readFileSync(join(dir, 'other-cert.pem'), 'utf8');
    const other = createHttpsServer(
      { key: readFileSync(join(dir, 'other-key.pem')), cert: otherCert },
      (_req, res) => res.end('{}'),
    );
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => other.close(() => resolve())));
    const misnamed = await start(configWith({ callerBurst: 5 }), {
      base: `https://127.0.0.1:${(other.address() as { port: number }).port}`,
      ca: otherCert,
    });
    const wrongHost = problemOf(await rawExchange(`${misnamed.url}${path}`, { headers: auth }));
    expect(wrongHost.status).toBe(502);
    expect(wrongHost.problem.detail).toContain('does not name the host');
    expect(wrongHost.problem.detail).not.toContain('--upstream-ca');
    const trusted = await start(configWith({ callerBurst: 5 }), { base, ca: cert });
    const reply = await rawExchange(`${trusted.url}${path}`, { headers: auth });
    expect(reply.status).toBe(200);
    expect(reply.body.toString()).toBe('{"exists":false,"token_count":0}');
  });
});
