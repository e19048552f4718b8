import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHandlers } from '../adapters/msw/msw-handlers.js';
import { createManualClock } from '../core/time/clock.js';
import type { Emulator } from '../core/emulator.js';
import { createSeededRandom } from '../core/time/random.js';
import { DEMO_CONFIG, DEMO_MERCHANT, DEMO_TOKEN } from '../demo-config.js';
import { createEmulator } from '../emulator.js';
import { createClient, type RetryNotice } from './client.js';
import { MAX_TIMER_MS } from './sleep.js';
import { STRICT } from '../../test/helpers/msw-options.js';

const BASE = 'http://uas.client.test';
const clock = createManualClock(Date.UTC(2026, 0, 1));
let emulator: Emulator;
const server = setupServer();

beforeAll(() => server.listen(STRICT));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** Serves a fresh emulator; the client waits on the same manual clock, so no test sleeps. */
function setup(caller = { burst: 2, rate: '1/s' }, retry = {}, behavior = {}) {
  emulator = createEmulator({
    config: { ...DEMO_CONFIG, limits: { ...DEMO_CONFIG.limits, caller }, behavior },
    clock,
    random: createSeededRandom(1),
  });
  server.use(...createHandlers({ emulator, baseUrl: BASE }));
  const notices: RetryNotice[] = [];
  const waits: number[] = [];
  const client = createClient({
    baseUrl: BASE,
    token: DEMO_TOKEN,
    random: createSeededRandom(9),
    retry,
    clock: {
      now: () => clock.now(),
      sleep: async (ms) => {
        waits.push(ms);
        clock.advance(ms);
      },
    },
    onRetry: (notice) => notices.push(notice),
  });
  return { client, notices, waits };
}

describe('createClient', () => {
  it('looks fetch up at each call, so an interceptor set up after the client still applies', async () => {
    const client = createClient({ baseUrl: BASE, token: DEMO_TOKEN, retry: false });
    const original = globalThis.fetch;
    const seen: string[] = [];
    globalThis.fetch = async (input) => {
      seen.push(String(input));
      return new Response(JSON.stringify({ exists: false, token_count: 0 }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    try {
      const result = await client.exists({ email: 'late@example.com' });
      expect(result).toMatchObject({ ok: true, data: { exists: false, token_count: 0 } });
    } finally {
      globalThis.fetch = original;
    }
    expect(seen).toEqual([`${BASE}/v1/users/exists?email=late%40example.com`]);
  });

  it('throws a TypeError, sending nothing, for a merchantId a URL cannot carry as a path segment', () => {
    let sent = 0;
    const client = createClient({
      baseUrl: BASE,
      token: DEMO_TOKEN,
      retry: false,
      fetch: async () => {
        sent++;
        return Response.json({});
      },
    });
    // From JavaScript: a merchantId left out went to /v1/merchants//users/..., null to .../null/...
    for (const merchantId of [undefined, null, 42] as unknown as string[]) {
      expect(() => client.start({ merchantId, email: 'a@example.com' })).toThrow(
        new TypeError(
          `start takes a merchantId a URL can carry as a path segment; got ${String(merchantId)}`,
        ),
      );
      expect(() => client.verify({ merchantId, email: 'a@example.com', code: '123456' })).toThrow(
        TypeError,
      );
    }
    // Arguments that are not what the call takes: thrown at the call, naming it.
    expect(() => client.exists(null as never)).toThrow(
      new TypeError('exists takes an object of its fields; got null'),
    );
    expect(() => client.exists({ email: 42 } as never)).toThrow(
      new TypeError('exists takes email as a string; got number'),
    );
    expect(() =>
      client.verify({ merchantId: 'm', email: 'a@example.com', code: 123456 } as never),
    ).toThrow(new TypeError('verify takes code as a string; got number'));
    for (const merchantId of ['', '.', '..', 'm\uD800']) {
      expect(() => client.start({ merchantId, email: 'a@example.com' })).toThrow(
        new TypeError(
          `start takes a merchantId a URL can carry as a path segment; got ${JSON.stringify(merchantId)}`,
        ),
      );
      expect(() => client.verify({ merchantId, email: 'a@example.com', code: '123456' })).toThrow(
        TypeError,
      );
    }
    expect(sent).toBe(0);
  });

  it('refuses a baseUrl with a query, a fragment or no origin with a TypeError, so no request goes elsewhere', () => {
    // "http://h/?q=1" sent start to "/?q=1/v1/merchants/..." and "http://h/#x" to "/".
    for (const baseUrl of [`${BASE}/?q=1`, `${BASE}/#top`, '', '/uas', 'ftp://uas.test'])
      expect(() => createClient({ baseUrl, token: DEMO_TOKEN })).toThrow(
        /^createClient: baseUrl must be an absolute http: or https: URL/,
      );
    expect(() => createClient({ baseUrl: `${BASE}/`, token: DEMO_TOKEN })).not.toThrow();
  });

  it('returns the parsed body and the bucket state', async () => {
    const { client } = setup();
    const result = await client.exists({ email: 'alice@example.com', callerId: '203.0.113.7' });
    expect(result).toMatchObject({
      outcome: 'success',
      status: 200,
      data: { exists: true, token_count: 2 },
    });
    expect(result.rateLimit).toMatchObject({
      bucket: 'caller:demo:203.0.113.7',
      remaining: 1,
      limit: 2,
    });
    expect(result.attempts).toHaveLength(1);
  });

  it('succeeds on a later attempt once the bucket refills after Retry-After', async () => {
    const { client, notices, waits } = setup();
    await client.exists({ email: 'alice@example.com', callerId: 'c' });
    await client.exists({ email: 'alice@example.com', callerId: 'c' });
    const result = await client.exists({ email: 'alice@example.com', callerId: 'c' });
    expect(result.outcome).toBe('success');
    expect(result.attempts.map((attempt) => attempt.status)).toEqual([429, 200]);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(1000);
    expect(waits[0]).toBeLessThan(1500);
    expect(notices[0]).toMatchObject({
      operation: 'exists',
      attempt: 1,
      maxAttempts: 3,
      status: 429,
    });
  });

  it('ends rate limited after exactly the configured attempts when every attempt is refused', async () => {
    // chaos 1 answers every request 429 (Retry-After 1 to 5 s), like a bucket drained by others.
    const { client, waits } = setup(undefined, { maxAttempts: 3 }, { chaos: 1 });
    const result = await client.start({
      merchantId: DEMO_MERCHANT,
      email: 'alice@example.com',
      callerId: 'slow',
    });
    expect(result.outcome).toBe('rate-limited');
    expect(result.gaveUp).toBe('max-attempts');
    expect(result.attempts.map((attempt) => attempt.status)).toEqual([429, 429, 429]);
    expect(waits).toHaveLength(2);
    expect(result.problem).toMatchObject({ status: 429, bucket: 'caller:demo:slow' });
  });

  it('gives up at once when Retry-After is longer than maxWaitMs', async () => {
    const { client, waits } = setup({ burst: 1, rate: '1/m' }, { maxWaitMs: 5000 });
    await client.exists({ email: 'alice@example.com', callerId: 'x' });
    const result = await client.exists({ email: 'alice@example.com', callerId: 'x' });
    expect(result.gaveUp).toBe('wait-too-long');
    expect(result.attempts).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('returns a typed problem for an HTTP error without retrying', async () => {
    const { client } = setup();
    const result = await client.verify({
      merchantId: DEMO_MERCHANT,
      email: 'bob@example.com',
      code: '123456',
    });
    expect(result.outcome).toBe('http-error');
    expect(result.problem).toMatchObject({ type: 'urn:uas:problem:code-not-found', status: 404 });
    expect(result.attempts).toHaveLength(1);
  });

  it('signs in with start then verify', async () => {
    const { client } = setup();
    expect(
      (await client.start({ merchantId: DEMO_MERCHANT, email: 'alice@example.com' })).data,
    ).toMatchObject({ sent: true });
    const code = emulator.latestCode('alice@example.com')?.code as string;
    const result = await client.verify({
      merchantId: DEMO_MERCHANT,
      email: 'alice@example.com',
      code,
    });
    expect(result.data).toMatchObject({ verified: true });
  });

  it('makes a single attempt with retry off', async () => {
    setup({ burst: 1, rate: '1/m' });
    const client = createClient({
      baseUrl: BASE,
      token: DEMO_TOKEN,
      retry: false,
      clock: { now: () => clock.now(), sleep: () => Promise.reject(new Error('no waits')) },
      random: createSeededRandom(9),
    });
    await client.exists({ email: 'a@b.co', callerId: 'one' });
    const result = await client.exists({ email: 'a@b.co', callerId: 'one' });
    expect(result.attempts).toHaveLength(1);
    expect(result.gaveUp).toBe('max-attempts');
  });

  it('refuses a timeout longer than a timer can hold, not above zero, or not whole', () => {
    // 1.5 ms is no timer's delay: each attempt would fail as a network error naming "delay".
    for (const timeoutMs of [MAX_TIMER_MS + 1, 25 * 86_400_000, 50 * 86_400_000, 0, -1, NaN, 1.5])
      expect(
        () => createClient({ baseUrl: BASE, token: DEMO_TOKEN, timeoutMs }),
        String(timeoutMs),
      ).toThrow(/timeoutMs must be a whole number from 1 to 2147483647 ms/);
    expect(() =>
      createClient({ baseUrl: BASE, token: DEMO_TOKEN, timeoutMs: MAX_TIMER_MS }),
    ).not.toThrow();
  });

  it('applies the default of a retry option given as undefined, where maxAttempts: undefined retried a 503 without end', async () => {
    let calls = 0;
    const client = createClient({
      baseUrl: BASE,
      token: DEMO_TOKEN,
      random: { next: () => 0 },
      retry: {
        maxAttempts: undefined as unknown as number,
        maxWaitMs: undefined as unknown as number,
      },
      clock: { now: () => 0, sleep: async () => {} },
      fetch: async () => {
        calls++;
        // Without an end, the tenth attempt is answered, so that the test ends either way.
        return new Response('{}', { status: calls < 10 ? 503 : 200 });
      },
    });
    const result = await client.exists({ email: 'a@b.co' });
    expect(calls).toBe(3);
    expect(result.gaveUp).toBe('max-attempts');
  });

  it.each<[string, Record<string, unknown>, ErrorConstructor, RegExp]>([
    [
      'a token left unset',
      { token: undefined },
      TypeError,
      /createClient: token must be a non-empty string; got undefined/,
    ],
    [
      'an empty token',
      { token: '' },
      TypeError,
      /createClient: token must be a non-empty string; got ""/,
    ],
    [
      'a token no header can carry',
      { token: 'a\nb' },
      TypeError,
      /createClient: token cannot go in an Authorization header: character 2 is U\+000A/,
    ],
    [
      'a token given with its scheme, copied from a header',
      { token: 'Bearer uas-demo-token' },
      TypeError,
      /createClient: token starts with "Bearer ": give the token alone/,
    ],
    [
      'a token holding a space, such as a Basic value',
      { token: 'Basic eA==' },
      TypeError,
      /createClient: token holds a space, which no bearer token does/,
    ],
    [
      'a negative maxResponseBytes',
      { maxResponseBytes: -1 },
      TypeError,
      /createClient: maxResponseBytes must be a whole number of bytes above 0; got -1/,
    ],
    [
      'a maxResponseBytes of NaN',
      { maxResponseBytes: NaN },
      TypeError,
      /maxResponseBytes must be a whole number of bytes above 0; got NaN/,
    ],
    [
      'a fetch that is no function',
      { fetch: 5 },
      TypeError,
      /createClient: fetch must be a function; got 5/,
    ],
    [
      'Math as a random source (its methods do not enumerate; it has no next)',
      { random: Math },
      TypeError,
      /createClient: random must have next\(\), as createSeededRandom\(seed\) gives; got \{\}/,
    ],
    [
      'a clock without sleep',
      { clock: { now: () => 0 } },
      TypeError,
      /createClient: clock must have now\(\) and sleep\(ms\)/,
    ],
    [
      'an onRetry that is no function (a retry threw, and the call rejected)',
      { onRetry: 5 },
      TypeError,
      /createClient: onRetry must be a function; got 5/,
    ],
    [
      'a random that is a function, as Math.random is',
      { random: () => 0.5 },
      TypeError,
      /createClient: random must have next\(\), as createSeededRandom\(seed\) gives; got a function/,
    ],
    [
      'maxAttempts of NaN',
      { retry: { maxAttempts: NaN } },
      RangeError,
      /createClient: retry.maxAttempts must be a whole number from 1; got NaN/,
    ],
    [
      'maxAttempts of 0',
      { retry: { maxAttempts: 0 } },
      RangeError,
      /retry.maxAttempts must be a whole number from 1; got 0/,
    ],
    [
      'a baseDelayMs of NaN',
      { retry: { baseDelayMs: NaN } },
      RangeError,
      /createClient: retry.baseDelayMs must be a finite number of ms, 0 or more; got NaN/,
    ],
    [
      'a negative maxWaitMs',
      { retry: { maxWaitMs: -1 } },
      RangeError,
      /retry.maxWaitMs must be a number of ms, 0 or more; got -1/,
    ],
  ])(
    'refuses %s when it is made, where its calls failed or misbehaved',
    (_what, options, kind, why) => {
      const make = () => createClient({ baseUrl: BASE, token: DEMO_TOKEN, ...options } as never);
      expect(make).toThrow(kind);
      expect(make).toThrow(why);
    },
  );

  it('refuses options that are not an object with a TypeError that says so', () => {
    for (const options of [undefined, null, 'https://uas.test']) {
      const make = () => createClient(options as never);
      expect(make).toThrow(TypeError);
      expect(make).toThrow(
        /^createClient takes an object of options \(baseUrl, token, \.\.\.\); got /,
      );
    }
  });

  it('waits the whole of a Retry-After longer than a timer can hold before trying again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      let calls = 0;
      const client = createClient({
        baseUrl: BASE,
        token: DEMO_TOKEN,
        random: { next: () => 0 },
        retry: { maxAttempts: 2, maxWaitMs: 30 * 86_400_000 },
        fetch: async () => {
          calls++;
          return calls === 1
            ? new Response('{}', { status: 429, headers: { 'retry-after': '2200000' } })
            : new Response('{"exists":true,"token_count":1}', {
                status: 200,
                headers: { 'content-type': 'application/json' },
              });
        },
      });
      const result = client.exists({ email: 'a@b.co' });
      await vi.advanceTimersByTimeAsync(1000);
      expect(calls).toBe(1);
      await vi.advanceTimersByTimeAsync(2_200_000_000 - 1001);
      expect(calls).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect((await result).attempts.map((attempt) => attempt.status)).toEqual([429, 200]);
      expect(calls).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
