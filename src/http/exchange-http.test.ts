import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  answer,
  head,
  stream,
  trickle,
  useHostileServers,
} from '../../test/helpers/hostile-server.js';
import { exchangeHttp, redirectTarget, type ExchangeOptions } from './exchange-http.js';
import type { HttpRequest } from './send-request.js';

const hostile = useHostileServers();

const OPTIONS: ExchangeOptions = { timeoutMs: 5_000, maxResponseBytes: 64 * 1024 };
const JSON_TYPE: [string, string] = ['Content-Type', 'application/json'];

const get = (url: string): HttpRequest => ({
  method: 'GET',
  url,
  headers: { accept: 'application/json' },
  body: undefined,
});

/** A port on 127.0.0.1 that nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('exchangeHttp', () => {
  it('reads a whole answer: its status, headers and body, and sends the request as given', async () => {
    const server = await hostile((socket) => answer(socket, 201, [JSON_TYPE], '{"ok":true}'));
    const outcome = await exchangeHttp(
      {
        method: 'POST',
        url: `${server.url}/v1/x?y=1`,
        headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
        body: '{"a":1}',
      },
      OPTIONS,
    );
    expect(outcome).toMatchObject({ kind: 'answer', status: 201, text: '{"ok":true}' });
    expect(outcome.kind === 'answer' && outcome.headers.get('content-type')).toBe(
      'application/json',
    );
    expect(server.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/v1/x?y=1',
        body: '{"a":1}',
        headers: expect.objectContaining({ authorization: 'Bearer t' }),
      }),
    ]);
  });

  it('does not follow a redirect: the 3xx is the answer, and its Location gets no request', async () => {
    const elsewhere = await hostile((socket) => answer(socket, 200, [JSON_TYPE], '{}'));
    const server = await hostile((socket) =>
      answer(socket, 302, [['Location', `${elsewhere.url}/steal`]]),
    );
    const outcome = await exchangeHttp(get(`${server.url}/start`), OPTIONS);
    expect(outcome).toMatchObject({ kind: 'answer', status: 302, text: '' });
    expect(redirectTarget(outcome)).toBe(`${elsewhere.url}/steal`);
    expect(elsewhere.requests).toEqual([]);
  });

  it('names no redirect target for an answer that is not a 3xx', async () => {
    const server = await hostile((socket) =>
      answer(socket, 200, [['Location', 'http://127.0.0.1/x']], ''),
    );
    expect(redirectTarget(await exchangeHttp(get(server.url), OPTIONS))).toBeUndefined();
  });

  it('refuses a body Content-Length announces above the limit, without reading it', async () => {
    const server = await hostile((socket) =>
      stream(socket, head(200, [['Content-Length', String(3 * 1024 ** 3)]]), server.written),
    );
    const outcome = await exchangeHttp(get(server.url), OPTIONS);
    expect(outcome).toMatchObject({
      kind: 'too-large',
      status: 200,
      error:
        'the answer announces 3221225472 bytes (Content-Length), above the limit of 65536; not read',
    });
  });

  it('stops reading a body without a length as soon as the bytes read pass the limit', async () => {
    const server = await hostile((socket) =>
      stream(socket, head(200, [['Transfer-Encoding', 'identity']]), server.written),
    );
    const outcome = await exchangeHttp(get(server.url), OPTIONS);
    expect(outcome).toMatchObject({
      kind: 'too-large',
      status: 200,
      error: "the answer's body passed the limit of 65536 bytes; not read further",
    });
  });

  it('reads a body of exactly the limit whole', async () => {
    const body = 'x'.repeat(OPTIONS.maxResponseBytes);
    const server = await hostile((socket) => answer(socket, 200, [], body));
    const outcome = await exchangeHttp(get(server.url), OPTIONS);
    expect(outcome.kind === 'answer' && outcome.text.length).toBe(body.length);
  });

  it('gives up on a server that never answers once the deadline passes: a timeout', async () => {
    const server = await hostile(() => undefined);
    // A real wait: the deadline is the wall clock's, and the server never answers.
    const outcome = await exchangeHttp(get(server.url), { ...OPTIONS, timeoutMs: 100 });
    expect(outcome).toMatchObject({
      kind: 'no-answer',
      reason: 'timeout',
      error: 'timed out',
      sent: true,
    });
  });

  it('holds the body to the same deadline: a body trickled past it is cut short by a timeout', async () => {
    const server = await hostile((socket) =>
      trickle(socket, head(200, [['Content-Length', '100']]), 10),
    );
    const outcome = await exchangeHttp(get(server.url), {
      ...OPTIONS,
      timeoutMs: 120,
      describe: (failure) => `described: ${(failure as Error).name}`,
    });
    expect(outcome).toMatchObject({ kind: 'cut-short', status: 200, reason: 'timeout' });
    expect(outcome.kind === 'cut-short' && outcome.error).toMatch(
      /^the answer was cut short after \d+ of 100 bytes of body \(described: TimeoutError\)$/,
    );
  });

  it('reports a body that ends before its Content-Length as cut short by the other side', async () => {
    const server = await hostile((socket) =>
      socket.end(Buffer.concat([head(200, [['Content-Length', '100']]), Buffer.from('{"a":')])),
    );
    const outcome = await exchangeHttp(get(server.url), OPTIONS);
    expect(outcome).toMatchObject({ kind: 'cut-short', status: 200, reason: 'reset' });
    expect(outcome.kind === 'cut-short' && outcome.error).toContain(
      'cut short after 5 of 100 bytes',
    );
  });
});

describe('exchangeHttp: network errors by kind', () => {
  it('calls a closed port refused, and the request unsent', async () => {
    const outcome = await exchangeHttp(get(`http://127.0.0.1:${await closedPort()}/`), OPTIONS);
    expect(outcome).toMatchObject({ kind: 'no-answer', reason: 'refused', sent: false });
    expect(outcome.kind === 'no-answer' && outcome.error).toMatch(/^ECONNREFUSED/);
  });

  it('calls a connection reset after the request reset, and the request sent', async () => {
    const server = await hostile((socket) => socket.resetAndDestroy());
    const outcome = await exchangeHttp(get(server.url), OPTIONS);
    expect(outcome).toMatchObject({ kind: 'no-answer', reason: 'reset', sent: true });
    expect(server.requests).toHaveLength(1);
  });

  it('calls a connection closed before any answer reset', async () => {
    const server = await hostile((socket) => socket.end());
    expect(await exchangeHttp(get(server.url), OPTIONS)).toMatchObject({
      kind: 'no-answer',
      reason: 'reset',
      sent: true,
    });
  });

  it('calls a host name that does not resolve dns, and the request unsent', async () => {
    // RFC 6761: .invalid never resolves.
    const outcome = await exchangeHttp(get('http://uas-http-test.invalid/'), OPTIONS);
    expect(outcome).toMatchObject({ kind: 'no-answer', reason: 'dns', sent: false });
  });

  it('calls an https request to a server that does not speak TLS tls', async () => {
    // Answers the TLS ClientHello with plain text: no handshake can come of it.
    const server = createServer((socket) =>
      socket.once('data', () => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n')),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const outcome = await exchangeHttp(get(`https://127.0.0.1:${port}/`), OPTIONS);
      expect(outcome).toMatchObject({ kind: 'no-answer', reason: 'tls' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('calls an answer that is not HTTP malformed', async () => {
    const server = await hostile((socket) => socket.end('SSH-2.0-OpenSSH\r\n\r\n'));
    const outcome = await exchangeHttp(get(server.url), OPTIONS);
    expect(outcome).toMatchObject({ kind: 'no-answer', reason: 'malformed', sent: true });
    // Node 20's fetch names the parser's code, Node 24's only the parser error.
    expect(outcome.kind === 'no-answer' && outcome.error).toMatch(/^(?:HPE_|HTTPParserError: )/);
  });

  it('never throws: a URL fetch refuses is a no-answer of kind blocked, never sent, its cause kept', async () => {
    const outcome = await exchangeHttp(get('http://127.0.0.1:1/'), OPTIONS);
    expect(outcome).toMatchObject({ kind: 'no-answer', reason: 'blocked', sent: false });
    // Port 1 is one the Fetch standard blocks: the error says so, and what to do.
    expect(outcome.kind === 'no-answer' && outcome.error).toMatch(
      /^bad port: fetch refuses to connect to this port, .*; serve on another port$/,
    );
    expect(outcome.kind === 'no-answer' && outcome.cause).toBeInstanceOf(Error);
  });

  it('uses the fetch it is given, and words failures with describe', async () => {
    const failing: typeof fetch = () =>
      Promise.reject(new TypeError('fetch failed', { cause: { code: 'EAI_AGAIN' } }));
    const outcome = await exchangeHttp(get('http://uas.test/'), {
      ...OPTIONS,
      fetch: failing,
      describe: () => 'said so',
    });
    expect(outcome).toMatchObject({
      kind: 'no-answer',
      reason: 'dns',
      sent: false,
      error: 'said so',
    });
  });
});
