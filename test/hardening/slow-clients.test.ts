import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type EmulatorHttpServer } from '../../src/adapters/http/http-server.js';
import { createEmulator } from '../../src/emulator.js';
import { DEMO_CONFIG, DEMO_TOKEN } from '../../src/demo-config.js';
import { createApi } from '../helpers/api.js';

let running: EmulatorHttpServer | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  sockets.splice(0).forEach((socket) => socket.destroy());
  await running?.close(100);
  running = undefined;
});

async function start(options = {}, config: unknown = DEMO_CONFIG) {
  running = await listen(createEmulator({ config }), 0, '127.0.0.1', options);
  const { port } = new URL(running.url);
  return { url: running.url, port: Number(port) };
}

/** Opens a raw connection, writes `text`, and resolves with everything the server sends until it closes. */
function raw(port: number, text: string): { socket: Socket; closed: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  socket.on('error', () => {});
  socket.write(text);
  return { socket, closed: new Promise((resolve) => socket.on('close', () => resolve(received))) };
}

describe('slow and oversized clients', () => {
  it('answers 431 to a header block over 16 KiB', async () => {
    const { port } = await start();
    const { closed } = raw(
      port,
      `GET /v1/users/exists HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(await closed).toMatch(/^HTTP\/1\.1 431 /);
  });

  it('answers 413 at once to a body over the limit, without reading it all', async () => {
    const { port } = await start();
    const { socket, closed } = raw(
      port,
      `POST /v1/merchants/${DEMO_CONFIG.clients[0]?.merchants[0]}/users/passwordless/start HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${DEMO_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n${'x'.repeat(40_000)}`,
    );
    const answer = await Promise.race([
      closed,
      new Promise<string>((resolve) => socket.once('data', (chunk) => resolve(chunk.toString()))),
    ]);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('urn:uas:problem:payload-too-large');
  });

  it('cuts off a client that stalls while sending its headers, and keeps serving others meanwhile', async () => {
    const { port, url } = await start({
      headersTimeoutMs: 300,
      requestTimeoutMs: 600,
      connectionsCheckingIntervalMs: 50,
    });
    const stalled = raw(port, 'GET /v1/users/exists HTTP/1.1\r\nHost: x\r\n');
    const answer = await createApi(url).exists('email=alice%40example.com');
    expect(answer.status).toBe(200);
    expect(await stalled.closed).toMatch(/^(HTTP\/1\.1 408 |)/);
    expect(stalled.socket.destroyed).toBe(true);
  });

  it('finishes in-flight requests on shutdown and refuses new ones', async () => {
    const { url } = await start({}, { ...DEMO_CONFIG, behavior: { latency: '300ms' } });
    // In flight once the server has read it (a fixed sleep races a busy machine: the connection
    // may not even be accepted before the shutdown, which then resets it).
    const received = new Promise((resolve) => running!.server.once('request', resolve));
    const inFlight = createApi(url).exists('email=alice%40example.com');
    await received;
    const started = Date.now();
    const closing = running!.close(3_000);
    const answer = await inFlight;
    await closing;
    running = undefined;
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3_000);
    await expect(fetch(`${url}/__uas/health`)).rejects.toThrow();
  });
});
