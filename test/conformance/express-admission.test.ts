import express from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMiddleware } from '../../src/adapters/express/express-middleware.js';
import { listen } from '../../src/adapters/http/http-server.js';
import { createMswEngine } from '../../src/adapters/msw/msw-engine.js';
import type { DevApiOptions, Emulator } from '../../src/core/emulator.js';
import { createManualClock } from '../../src/core/time/clock.js';
import { DEMO_CONFIG, DEMO_MERCHANT } from '../../src/demo-config.js';
import { createEmulator } from '../../src/emulator.js';
import { destroySockets, rawRequest, type RawAnswer } from '../helpers/raw-http.js';

const ALLOWED_HOSTS = ['uas.internal'];

/** A server that admits requests: its port, and how to stop it. */
interface Admitting {
  port: number;
  close(): Promise<void>;
}

/** The servers that read sockets: `uas serve`'s transport (both engines) and the middleware. */
const SERVERS: Array<{ name: string; start(emulator: Emulator): Promise<Admitting> }> = [
  { name: 'the default engine', start: (emulator) => serve(emulator, undefined) },
  { name: 'the msw engine', start: (emulator) => serve(emulator, createMswEngine(emulator)) },
  {
    name: 'the Express middleware',
    async start(emulator) {
      const app = express();
      app.use(createMiddleware({ emulator, allowedHosts: ALLOWED_HOSTS }));
      app.use((_req, res) => res.status(418).json({ app: 'next' }));
      // Node's own check of Host answers before any middleware, with an empty 400: off, so that
      // the middleware's refusal is the one seen.
      const server: Server = createServer({ requireHostHeader: false }, app);
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      return {
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      };
    },
  },
];

async function serve(
  emulator: Emulator,
  engine: ReturnType<typeof createMswEngine> | undefined,
): Promise<Admitting> {
  const running = await listen(emulator, 0, '127.0.0.1', { allowedHosts: ALLOWED_HOSTS, engine });
  return { port: Number(new URL(running.url).port), close: () => running.close(100) };
}

const START = `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`;
const USERS = JSON.stringify({ users: [{ email: 'mallory@example.com' }] });
const usersPost = (headers: string) =>
  `POST /__uas/users HTTP/1.1\r\n${headers}Content-Type: application/json\r\nContent-Length: ${USERS.length}\r\n\r\n${USERS}`;

interface AdmissionCase {
  name: string;
  request: string;
  status: number;
  /** The problem's type, for a refusal. */
  type?: string;
  closed: boolean;
  devApi?: DevApiOptions;
  /** The problem's detail counts the bytes read, which depends on how they arrive. */
  detailVaries?: boolean;
}

const CASES: AdmissionCase[] = [
  {
    name: 'a dev-API read under a Host that is not a loopback name',
    request: 'GET /__uas/codes/alice%40example.com HTTP/1.1\r\nHost: evil.example\r\n\r\n',
    status: 403,
    type: 'host-not-allowed',
    closed: false,
  },
  {
    name: 'a dev-API body under a Host that is not a loopback name',
    request:
      'POST /__uas/reset HTTP/1.1\r\nHost: evil.example:80\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
    status: 403,
    type: 'host-not-allowed',
    closed: true,
  },
  {
    name: 'a dev-API path spelt with dot segments under a foreign Host',
    request: 'GET /v1/%2e%2e/__uas/codes HTTP/1.1\r\nHost: evil.example\r\n\r\n',
    status: 403,
    type: 'host-not-allowed',
    closed: false,
  },
  {
    name: 'a Host that is not a host and port',
    request: 'GET /__uas/codes/alice%40example.com HTTP/1.1\r\nHost: [::1]evil.example\r\n\r\n',
    status: 400,
    type: 'malformed-http',
    closed: true,
  },
  {
    name: 'two Host lines',
    request: 'GET /__uas/health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n',
    status: 400,
    type: 'malformed-http',
    closed: true,
  },
  {
    name: 'HTTP/1.1 without Host',
    request: 'GET /v1/users/exists?email=alice%40example.com HTTP/1.1\r\n\r\n',
    status: 400,
    type: 'malformed-http',
    closed: true,
  },
  {
    name: 'a dev-API write from a page of another origin',
    request: usersPost('Host: 127.0.0.1\r\nOrigin: http://evil.example\r\n'),
    status: 403,
    type: 'cross-origin-refused',
    closed: true,
  },
  {
    name: 'a dev-API write a browser marks cross-site',
    request: usersPost('Host: 127.0.0.1\r\nSec-Fetch-Site: cross-site\r\n'),
    status: 403,
    type: 'cross-origin-refused',
    closed: true,
  },
  {
    name: 'a dev-API read that shows traffic, from a page of another origin',
    request:
      'GET /__uas/journal HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\n\r\n',
    status: 403,
    type: 'cross-origin-refused',
    closed: false,
  },
  {
    name: 'a dev-API body sent without the admin token',
    request: usersPost('Host: 127.0.0.1\r\n'),
    status: 401,
    type: 'admin-token-required',
    closed: true,
    devApi: { adminToken: 'admin-secret' },
  },
  {
    name: 'a body announced over the limit',
    request: `POST ${START} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n`,
    status: 413,
    type: 'payload-too-large',
    closed: true,
  },
  {
    name: 'a chunked body over the limit',
    request: `POST ${START} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4e20\r\n${'x'.repeat(20_000)}\r\n0\r\n\r\n`,
    status: 413,
    type: 'payload-too-large',
    closed: true,
    detailVaries: true,
  },
  {
    name: 'a dev-API read under an allowed Host (admitted)',
    request: 'GET /__uas/codes/alice%40example.com HTTP/1.1\r\nHost: uas.internal:4010\r\n\r\n',
    status: 404,
    type: 'code-not-found',
    closed: false,
  },
  {
    name: 'a dev-API write from a page of the same origin (admitted)',
    request: usersPost('Host: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\n'),
    status: 200,
    closed: false,
  },
  {
    name: 'a dev-API read under any Host with the admin token (admitted)',
    request:
      'GET /__uas/codes/alice%40example.com HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer admin-secret\r\n\r\n',
    status: 404,
    type: 'code-not-found',
    closed: false,
    devApi: { adminToken: 'admin-secret' },
  },
];

let running: Admitting[] = [];
afterEach(async () => {
  destroySockets();
  await Promise.all(running.map((server) => server.close()));
  running = [];
});

/** What a client can tell of an answer: status, content type, problem, whether it closed. */
function seen(answer: RawAnswer, detailVaries: boolean) {
  const json = answer.headers['content-type']?.includes('json') === true;
  const body = json ? (JSON.parse(answer.body) as Record<string, unknown>) : answer.body;
  if (detailVaries && typeof body === 'object') delete body.detail;
  return {
    status: answer.status,
    contentType: answer.headers['content-type'],
    cacheControl: answer.headers['cache-control'],
    connection: answer.headers.connection,
    body,
    closed: answer.closed,
  };
}

describe('admission, alike on every transport that reads sockets', () => {
  it.each(CASES.map((each) => [each.name, each] as const))(
    'answers %s alike on both engines and the Express middleware',
    async (_name, each) => {
      const answers = [];
      for (const server of SERVERS) {
        const emulator = createEmulator({
          config: DEMO_CONFIG,
          clock: createManualClock(0),
          devApi: each.devApi,
        });
        const started = await server.start(emulator);
        running.push(started);
        // Waits for the close when one is due (at once on an idle machine), briefly otherwise.
        const raw = await rawRequest(started.port, each.request, each.closed ? 5_000 : 150);
        const answer = seen(raw, each.detailVaries === true);
        expect(answer.status, server.name).toBe(each.status);
        expect(answer.closed, server.name).toBe(each.closed);
        if (each.type !== undefined) {
          expect(answer.contentType, server.name).toBe('application/problem+json');
          expect((answer.body as { type?: string }).type, server.name).toBe(
            `urn:uas:problem:${each.type}`,
          );
        }
        answers.push({ server: server.name, ...answer });
      }
      const [first, ...others] = answers;
      for (const other of others) expect({ ...other, server: first!.server }).toEqual(first);
    },
  );
});
