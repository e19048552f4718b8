import { describe, expect, it } from 'vitest';
import {
  createClient,
  DEFAULT_MAX_RESPONSE_BYTES,
  type ClientOptions,
} from '../../src/client/client.js';
import { DEMO_MERCHANT, DEMO_TOKEN } from '../../src/demo-config.js';
import { createTestClock, TEST_NOW } from '../helpers/client-clock.js';
import {
  answer,
  head,
  stream,
  trickle,
  useHostileServers,
  type HostileServer,
  type Misbehaviour,
} from '../helpers/hostile-server.js';

const hostile = useHostileServers();

/** A client of `server` on a virtual clock: retries never wait for real. */
function clientOf(server: HostileServer, options: Partial<ClientOptions> = {}) {
  const time = createTestClock();
  const client = createClient({
    baseUrl: server.url,
    token: DEMO_TOKEN,
    clock: time.clock,
    random: time.random,
    ...options,
  });
  return { client, waits: time.waits };
}

const JSON_TYPE: [string, string] = ['Content-Type', 'application/json'];
const start = { merchantId: DEMO_MERCHANT, email: 'alice@example.com' };

describe('a body cut short', () => {
  // Content-Length 100, then 12 bytes, then the connection closes.
  const truncated: Misbehaviour = (socket) =>
    socket.end(
      Buffer.concat([
        head(200, [JSON_TYPE, ['Content-Length', '100']]),
        Buffer.from('{"exists":tr'),
      ]),
    );

  it('is a network error, not a success, and exists is retried as the policy says', async () => {
    const server = await hostile(truncated);
    const { client, waits } = clientOf(server);
    const result = await client.exists({ email: 'alice@example.com' });
    expect(result).toMatchObject({ outcome: 'network-error', ok: false, status: undefined });
    expect(result.data).toBeUndefined();
    expect(result.error).toContain('cut short after 12 of 100 bytes');
    expect(result.gaveUp).toBe('max-attempts');
    expect(result.attempts.map((attempt) => attempt.status)).toEqual([200, 200, 200]);
    expect(server.requests).toHaveLength(3);
    expect(waits).toHaveLength(2);
  });

  it('is not repeated for start, which may have run', async () => {
    const server = await hostile(truncated);
    const { client, waits } = clientOf(server);
    const result = await client.start(start);
    expect(result.outcome).toBe('network-error');
    expect(result.gaveUp).toBe('not-retryable');
    expect(server.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('is a network error when a chunked body ends without its last chunk', async () => {
    const server = await hostile((socket) =>
      socket.end(
        Buffer.concat([
          head(200, [JSON_TYPE, ['Transfer-Encoding', 'chunked']]),
          Buffer.from('c\r\n{"verified":\r\n'),
        ]),
      ),
    );
    const { client } = clientOf(server);
    const result = await client.verify({ ...start, code: '123456' });
    expect(result.outcome).toBe('network-error');
    expect(result.error).toContain('cut short after 12 bytes');
  });

  it('is a network error when the body is trickled past the timeout', async () => {
    const server = await hostile((socket) =>
      trickle(socket, head(200, [JSON_TYPE, ['Content-Length', '100']]), 10),
    );
    // The one real wait of these tests: the attempt's deadline is the wall clock's.
    const { client } = clientOf(server, { timeoutMs: 120 });
    const result = await client.start(start);
    expect(result.outcome).toBe('network-error');
    expect(result.error).toMatch(
      /cut short after \d+ of 100 bytes of body \(timed out after 120 ms\)/,
    );
    expect(server.requests).toHaveLength(1);
  });
});

describe('a body too long', () => {
  it('is refused at once when Content-Length announces more than maxResponseBytes', async () => {
    const server = await hostile((socket) =>
      stream(
        socket,
        head(200, [JSON_TYPE, ['Content-Length', String(3 * 1024 ** 3)]]),
        server.written,
      ),
    );
    const { client } = clientOf(server);
    const result = await client.exists({ email: 'alice@example.com' });
    expect(result).toMatchObject({ outcome: 'invalid-answer', ok: false, status: 200, text: '' });
    expect(result.error).toBe(
      'the answer announces 3221225472 bytes (Content-Length), above the limit of 1048576; not read',
    );
    // Not retried: a second try would be as long.
    expect(server.requests).toHaveLength(1);
  });

  it('is cut off as soon as the bytes read pass the limit when no length is announced', async () => {
    const server = await hostile((socket) =>
      stream(socket, head(200, [JSON_TYPE, ['Transfer-Encoding', 'identity']]), server.written),
    );
    const { client } = clientOf(server, { maxResponseBytes: 256 * 1024 });
    const result = await client.exists({ email: 'alice@example.com' });
    expect(result.outcome).toBe('invalid-answer');
    expect(result.error).toBe(
      "the answer's body passed the limit of 262144 bytes; not read further",
    );
    expect(result.text).toBe('');
  });

  it('is measured against 1 MiB by default', async () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(1024 * 1024);
    const body = JSON.stringify({ exists: true, token_count: 1, pad: 'x'.repeat(1024 * 1024) });
    const server = await hostile((socket) => answer(socket, 200, [JSON_TYPE], body));
    const { client } = clientOf(server);
    expect((await client.exists({ email: 'alice@example.com' })).outcome).toBe('invalid-answer');
    const roomy = clientOf(server, { maxResponseBytes: 2 * 1024 * 1024 }).client;
    expect((await roomy.exists({ email: 'alice@example.com' })).outcome).toBe('success');
  });
});

describe('a redirect', () => {
  it('is not followed: a cross-origin 307 is an http-error naming the Location', async () => {
    const elsewhere = await hostile((socket) => answer(socket, 200, [JSON_TYPE], '{"sent":true}'));
    const server = await hostile((socket) =>
      answer(socket, 307, [['Location', `${elsewhere.url}/steal`]]),
    );
    const { client } = clientOf(server);
    const result = await client.start(start);
    expect(result).toMatchObject({
      outcome: 'http-error',
      ok: false,
      status: 307,
      location: `${elsewhere.url}/steal`,
      gaveUp: 'not-retryable',
    });
    // The e-mail never reached the other host.
    expect(elsewhere.requests).toEqual([]);
  });
});

describe('a 2xx that is not the answer', () => {
  it('is an invalid answer when the body is not JSON or lacks a field', async () => {
    const bodies = [
      '<html>hello</html>',
      '{"exists":"yes","token_count":1}',
      '{"exists":true}',
      '',
    ];
    let next = 0;
    const server = await hostile((socket) => answer(socket, 200, [JSON_TYPE], bodies[next++]));
    const { client } = clientOf(server);
    const errors = [];
    for (let index = 0; index < bodies.length; index++) {
      const result = await client.exists({ email: 'alice@example.com' });
      expect(result.outcome).toBe('invalid-answer');
      expect(result.data).toBeUndefined();
      errors.push(result.error);
    }
    expect(errors).toEqual([
      'the body is not JSON, so not an answer of exists',
      expect.stringContaining('exists:'),
      expect.stringContaining('token_count:'),
      'the body is not JSON, so not an answer of exists',
    ]);
  });

  it('keeps fields it does not know', async () => {
    const server = await hostile((socket) =>
      answer(socket, 200, [JSON_TYPE], '{"exists":true,"token_count":3,"extra":1}'),
    );
    const result = await clientOf(server).client.exists({ email: 'alice@example.com' });
    expect(result.ok && result.data).toEqual({ exists: true, token_count: 3, extra: 1 });
  });
});

describe('Retry-After', () => {
  const rateLimited = (retryAfter: string): Misbehaviour => {
    let first = true;
    return (socket) => {
      if (first) answer(socket, 429, [['Retry-After', retryAfter]]);
      else answer(socket, 200, [JSON_TYPE], '{"exists":true,"token_count":0}');
      first = false;
    };
  };

  it('waits until an HTTP date, counted on the injected clock', async () => {
    const date = new Date(TEST_NOW + 12_000).toUTCString();
    const server = await hostile(rateLimited(date));
    const { client, waits } = clientOf(server);
    const result = await client.exists({ email: 'alice@example.com' });
    expect(result.outcome).toBe('success');
    expect(result.attempts[0]?.retryAfter).toEqual({ value: date, delayMs: 12_000, form: 'date' });
    expect(waits[0]).toBeGreaterThanOrEqual(12_000);
    expect(waits[0]).toBeLessThan(12_500);
  });

  it('gives up at once on a huge value, and waits only the backoff on a negative one', async () => {
    const huge = await hostile(rateLimited('9'.repeat(400)));
    const refused = await clientOf(huge).client.exists({ email: 'a@b.co' });
    expect(refused).toMatchObject({ outcome: 'rate-limited', gaveUp: 'wait-too-long' });
    expect(refused.retryAfter?.delayMs).toBe(2 ** 31 * 1000);

    const negative = await hostile(rateLimited('-5'));
    const { client, waits } = clientOf(negative);
    expect((await client.exists({ email: 'a@b.co' })).outcome).toBe('success');
    expect(waits[0]).toBeLessThan(500);
  });
});
