import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_CONFIG, DEMO_MERCHANT } from '../../src/demo-config.js';
import { createApi, send } from '../helpers/api.js';
import { eventually } from '../helpers/eventually.js';
import {
  START_TIME,
  useTransports,
  type AnyTarget,
  type TargetOptions,
} from '../helpers/targets.js';

const TRANSPORTS = useTransports();
import { createDevClient } from '../../src/dev-client/dev-client.js';

const ALICE = 'email=alice%40example.com';
const json = (body: unknown): RequestInit => ({
  method: 'PATCH',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe.each(TRANSPORTS)('the dev API over $name', (transport) => {
  let target: AnyTarget | undefined;
  const start = async (options?: TargetOptions) => {
    target = await transport.start(options);
    return { target, api: createApi(target.baseUrl) };
  };
  afterEach(async () => {
    await target?.close();
    target = undefined;
  });

  it('reports health and lists its routes', async () => {
    const { api, target } = await start();
    const health = await api.dev('/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', uptime_ms: 0 });
    expect((await api.dev('')).body.routes).toContain('GET    /__uas/health');
    // The memory store is `memory`; a Redis store that answers is `up` (docs/dev-api.md).
    const store = target.emulator.storeKind === 'memory' ? 'memory' : 'up';
    expect((await api.dev('/health')).body).toMatchObject({ status: 'ok', store });
    expect((await api.dev('/nothing')).status).toBe(404);
  });

  it('never reports a negative uptime, a manual clock set back before the start included', async () => {
    const { api, target } = await start();
    target.clock.set(START_TIME - 3_600_000);
    expect((await api.dev('/health')).body).toMatchObject({ status: 'ok', uptime_ms: 0 });
    target.clock.set(START_TIME + 1_500);
    expect((await api.dev('/health')).body).toMatchObject({ uptime_ms: 1_500 });
  });

  it('lists buckets with their state, filters by level, and resets one or all', async () => {
    const { api, target } = await start();
    await api.exists(`${ALICE}&caller_id=1.2.3.4`);
    await api.exists(`${ALICE}&caller_id=1.2.3.4`);
    await api.exists(ALICE);
    const list = await api.dev('/buckets');
    expect(list.body.total).toBe(2);
    expect(list.body.buckets).toEqual([
      expect.objectContaining({
        key: 'caller:demo:1.2.3.4',
        level: 'caller',
        client_id: 'demo',
        caller_id: '1.2.3.4',
        remaining: 3,
        burst: 5,
        rate: '1/s',
        allowed: 2,
        rejected: 0,
      }),
      expect.objectContaining({
        key: 'client:demo',
        level: 'client',
        remaining: 19,
        burst: 20,
        allowed: 1,
      }),
    ]);
    expect((await api.dev('/buckets?level=client')).body.total).toBe(1);
    expect((await api.dev('/buckets?level=nope')).status).toBe(400);
    const one = await api.dev(`/buckets/${encodeURIComponent('caller:demo:1.2.3.4')}`);
    expect(one.body.remaining).toBe(3);
    const reset = await api.dev(`/buckets/${encodeURIComponent('caller:demo:1.2.3.4')}`, {
      method: 'DELETE',
    });
    expect(reset.body).toEqual({ reset: ['caller:demo:1.2.3.4'] });
    expect((await api.exists(`${ALICE}&caller_id=1.2.3.4`)).headers.get('ratelimit')).toBe(
      '"caller";r=4;t=1',
    );
    expect((await api.dev('/buckets/client%3Anobody', { method: 'DELETE' })).status).toBe(404);
    const all = await api.dev('/buckets', { method: 'DELETE' });
    expect(all.body).toEqual({ reset: 'all', count: 2 });
    expect((await target.emulator.listBuckets()).total).toBe(0);
  });

  it('shows the latest one-time code for an e-mail with its expiry and attempts left', async () => {
    const { api } = await start();
    expect((await api.dev('/codes/alice%40example.com')).status).toBe(404);
    await api.start({ email: 'alice@example.com' });
    const code = await api.dev(`/codes/alice%40example.com?merchant_id=${DEMO_MERCHANT}`);
    expect(code.status).toBe(200);
    expect(code.body).toMatchObject({
      email: 'alice@example.com',
      merchant_id: DEMO_MERCHANT,
      attempts_left: 5,
      used: false,
      expires_at: '2026-01-01T12:10:00.000Z',
    });
    expect(code.body.code).toMatch(/^\d{6}$/);
    await api.verify({ email: 'alice@example.com', verification_code: '0' });
    expect((await api.dev('/codes?email=alice%40example.com')).body.attempts_left).toBe(4);
  });

  it('keeps a journal of requests, newest first', async () => {
    const { api } = await start();
    await api.exists(ALICE);
    await api.exists(ALICE, { token: null });
    const journal = await api.dev('/journal?limit=5');
    const requests = journal.body.requests as Array<Record<string, unknown>>;
    expect(requests.map((entry) => entry.status)).toEqual([401, 200]);
    expect(requests[1]).toMatchObject({
      operation: 'exists',
      bucket: 'client:demo',
      outcome: 'allowed',
      remaining: 19,
    });
    expect((await api.dev('/journal?limit=0')).status).toBe(400);
  });

  it('shows the config without tokens and changes limits live', async () => {
    const { api } = await start();
    const config = await api.dev('/config');
    expect(JSON.stringify(config.body)).not.toContain(DEMO_CONFIG.clients[0]?.token);
    const changed = await api.dev(
      '/config',
      json({ limits: { caller: { burst: 2 } }, behavior: { headers: 'x-ratelimit' } }),
    );
    expect(changed.status).toBe(200);
    await api.exists(`${ALICE}&caller_id=x`);
    const second = await api.exists(`${ALICE}&caller_id=x`);
    expect(second.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(second.headers.get('x-ratelimit-limit')).toBe('2');
    expect(second.headers.get('ratelimit')).toBeNull();
    expect((await api.exists(`${ALICE}&caller_id=x`)).status).toBe(429);
  });

  it('refuses an invalid config change and keeps the running config', async () => {
    const { api, target } = await start();
    const refused = await api.dev('/config', json({ limits: { caller: { rate: 'fast' } } }));
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toContain('limits.caller.rate');
    expect((await api.dev('/config', json({ clients: [] }))).status).toBe(422);
    expect((await api.dev('/config', json({ status: 200, headers: {} }))).status).toBe(422);
    expect(
      (
        await api.dev('/config', {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: '{',
        })
      ).status,
    ).toBe(400);
    // A body that is not declared JSON is refused before it is read: a cross-site form cannot send one.
    expect((await api.dev('/config', { method: 'PATCH', body: '{}' })).status).toBe(415);
    expect(target.emulator.config.limits.caller.rateText).toBe('1/s');
  });

  it('pages the bucket list, at most 1000 a page', async () => {
    const { api, target } = await start();
    for (let index = 0; index < 2_500; index++)
      await target.emulator.handle({
        method: 'GET',
        url: `/v1/users/exists?email=a%40b.co&caller_id=c${index}`,
        headers: { authorization: 'Bearer uas-demo-token' },
      });
    expect((await api.dev('/buckets?limit=100000')).status).toBe(400);
    const twice = await api.dev('/buckets?limit=1&limit=2');
    expect(twice.status).toBe(400);
    expect(twice.body.type).toBe('urn:uas:problem:duplicate-parameter');
    expect((await api.dev(`/buckets?offset=${Number.MAX_SAFE_INTEGER}`)).body.buckets).toEqual([]);
    const keys: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page = await api.dev(`/buckets?sort=key&limit=1000&offset=${offset}`);
      expect(page.body.total).toBe(2_500);
      keys.push(...(page.body.buckets as Array<{ key: string }>).map((bucket) => bucket.key));
      offset = page.body.next_offset as number | null;
    }
    expect(keys).toHaveLength(2_500);
    expect(new Set(keys).size).toBe(2_500);
    expect(keys).toEqual([...keys].sort());

    // By key, from the last key of each page: buckets created before the cursor meanwhile
    // shift nothing, so every bucket is listed exactly once (by offset, one would be twice).
    const walked: string[] = [];
    let after: string | null = '';
    for (let page = 0; after !== null; page++) {
      const query = `sort=key&level=caller&limit=1000${page === 0 ? '' : `&after=${encodeURIComponent(after)}`}`;
      const answer = await api.dev(`/buckets?${query}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toHaveProperty('next_after');
      walked.push(...(answer.body.buckets as Array<{ key: string }>).map((bucket) => bucket.key));
      after = answer.body.next_after as string | null;
      await target.emulator.handle({
        method: 'GET',
        url: `/v1/users/exists?email=a%40b.co&caller_id=a-new-${page}`,
        headers: { authorization: 'Bearer uas-demo-token' },
      });
    }
    expect(walked).toEqual(keys.filter((key) => key.startsWith('caller:')));
  });

  it('exposes Prometheus metrics', async () => {
    const { target } = await start();
    const api = createApi(target.baseUrl);
    await api.exists(ALICE);
    const metrics = await send(target.baseUrl, '/__uas/metrics');
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(metrics.text).toContain('uas_requests_total{operation="exists",status="200"} 1');
    expect(metrics.text).toContain('uas_buckets{level="client"} 1');
  });

  it('streams requests and codes as server-sent events', async () => {
    const { target, api } = await start();
    const controller = new AbortController();
    const response = await fetch(`${target.baseUrl}/__uas/events`, { signal: controller.signal });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    // Reads until both kinds of event are in; the abort below ends a read still waiting.
    void (async () => {
      while (!(text.includes('event: request') && text.includes('event: code'))) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
    })().catch(() => {});
    // The reader may attach a moment after the response headers arrive: sign in once it has.
    await eventually(async () => /^uas_event_readers 1$/m.test((await api.dev('/metrics')).text));
    await api.start({ email: 'alice@example.com' });
    await eventually(() => text.includes('event: request') && text.includes('event: code')).catch(
      () => {},
    );
    // Not awaited: msw's interceptor may settle a cancel only once the stream would have ended.
    controller.abort();
    void reader.cancel().catch(() => {});
    expect(text).toContain('event: code');
    expect(text).toMatch(
      /event: request\ndata: \{"type":"request","request":\{.*"operation":"start"/,
    );
  });

  it('requires the admin token when one is set', async () => {
    const { api } = await start({ devApi: { adminToken: 'admin-secret-123' } });
    const refused = await api.dev('/buckets');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('Bearer');
    expect((await api.dev('/buckets', { headers: { authorization: 'Bearer wrong' } })).status).toBe(
      401,
    );
    expect(
      (await api.dev('/buckets', { headers: { authorization: 'Bearer admin-secret-123' } })).status,
    ).toBe(200);
  });

  it('answers 404 on every dev route when the dev API is off', async () => {
    const { api } = await start({ devApi: { enabled: false } });
    const off = await api.dev('/health');
    expect(off.status).toBe(404);
    expect(off.body.detail).toContain('dev API is off');
  });
});

describe.each(TRANSPORTS)('429 behaviour over $name', (transport) => {
  let target: AnyTarget | undefined;
  afterEach(async () => {
    await target?.close();
    target = undefined;
  });
  const withBehavior = async (
    behavior: Record<string, unknown>,
    caller = { burst: 1, rate: '1/10s' },
  ) => {
    target = await transport.start({
      config: { ...DEMO_CONFIG, limits: { ...DEMO_CONFIG.limits, caller }, behavior },
    });
    return createApi(target.baseUrl);
  };

  it('rounds Retry-After up to the whole second a token is back', async () => {
    const api = await withBehavior({});
    await api.exists(`${ALICE}&caller_id=a`);
    const limited = await api.exists(`${ALICE}&caller_id=a`);
    expect(limited.headers.get('retry-after')).toBe('10');
    target?.clock.advance(9_999);
    expect((await api.exists(`${ALICE}&caller_id=a`)).status).toBe(429);
    target?.clock.advance(1);
    expect((await api.exists(`${ALICE}&caller_id=a`)).status).toBe(200);
  });

  it('sends a fixed Retry-After, but never one earlier than a token is back', async () => {
    const api = await withBehavior({ retryAfter: 'fixed:30' });
    await api.exists(`${ALICE}&caller_id=a`);
    expect((await api.exists(`${ALICE}&caller_id=a`)).headers.get('retry-after')).toBe('30');
  });

  it('leaves Retry-After out when told to', async () => {
    const api = await withBehavior({ retryAfter: 'absent' });
    await api.exists(`${ALICE}&caller_id=a`);
    const limited = await api.exists(`${ALICE}&caller_id=a`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeNull();
  });

  it('counts but never rejects in shadow mode', async () => {
    const api = await withBehavior({ shadow: true });
    await api.exists(`${ALICE}&caller_id=a`);
    const over = await api.exists(`${ALICE}&caller_id=a`);
    expect(over.status).toBe(200);
    expect(over.headers.get('uas-shadow-limited')).toBe('true');
    expect(await target?.emulator.getBucket('caller:demo:a')).toMatchObject({
      allowed: 1,
      shadow_rejected: 1,
    });
  });

  it('injects 429s with the chaos probability without charging the bucket', async () => {
    const api = await withBehavior({ chaos: 1 });
    const injected = await api.exists(`${ALICE}&caller_id=a`);
    expect(injected.status).toBe(429);
    expect(injected.body.injected).toBe(true);
    expect(Number(injected.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await target?.emulator.getBucket('caller:demo:a')).toMatchObject({
      remaining: 1,
      rejected: 1,
    });
  });

  it('draws the Retry-After of each injected 429 from 1 to 5 s, or from behavior.chaosRetryAfter', async () => {
    const api = await withBehavior({ chaos: 1 });
    const retryAfters = async () => {
      const seen: string[] = [];
      for (let index = 0; index < 40; index++)
        seen.push((await api.exists(`${ALICE}&caller_id=a`)).headers.get('retry-after') ?? '');
      return seen;
    };
    const drawn = await retryAfters();
    expect(new Set(drawn)).toEqual(new Set(['1', '2', '3', '4', '5']));
    // Each record keeps the Retry-After its 429 carried, and says the 429 was injected.
    const records = target!.emulator.journal().slice(0, 40).reverse();
    expect(records.map((record) => String(record.retry_after))).toEqual(drawn);
    expect(new Set(records.map((record) => record.outcome))).toEqual(new Set(['injected-429']));

    const refused = await api.dev('/config', json({ behavior: { chaosRetryAfter: '9-2' } }));
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain('expected the shorter wait first');
    expect((await api.dev('/config')).body.behavior).toMatchObject({ chaosRetryAfter: '1-5' });
    expect((await api.dev('/config', json({ behavior: { chaosRetryAfter: '7-8' } }))).status).toBe(
      200,
    );
    expect(new Set(await retryAfters())).toEqual(new Set(['7', '8']));
  });

  it('gives an injected 429 the RateLimit fields of a refusal: none left, back when Retry-After says', async () => {
    const api = await withBehavior({ chaos: 1 }, { burst: 5, rate: '1/s' });
    for (let index = 0; index < 10; index++) {
      const injected = await api.exists(`${ALICE}&caller_id=a`);
      const wait = injected.headers.get('retry-after');
      expect(injected.headers.get('ratelimit')).toBe(`"caller";r=0;t=${wait}`);
    }
    // The bucket itself stays full: the dev API says so.
    expect(await target?.emulator.getBucket('caller:demo:a')).toMatchObject({ remaining: 5 });
    // A 429 scripted by a fault likewise, in every header style.
    await api.dev('/config', json({ behavior: { chaos: 0, headers: 'x-ratelimit' } }));
    await api.dev('/faults', { ...json({ status: 429, retry_after: 7 }), method: 'POST' });
    const scripted = await api.exists(`${ALICE}&caller_id=a`);
    expect(scripted.status).toBe(429);
    expect(scripted.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(scripted.headers.get('x-ratelimit-reset')).toBe('7');
  });

  it('never injects a Retry-After earlier than the moment an empty bucket has a token', async () => {
    const api = await withBehavior({ chaos: 0 }, { burst: 1, rate: '1/30s' });
    await api.exists(`${ALICE}&caller_id=e`);
    await api.dev('/config', json({ behavior: { chaos: 1, chaosRetryAfter: '1-5' } }));
    for (let index = 0; index < 10; index++)
      expect((await api.exists(`${ALICE}&caller_id=e`)).headers.get('retry-after')).toBe('30');
  });

  it('writes draft-7, draft-6 or no rate-limit fields by style', async () => {
    const api = await withBehavior({ headers: 'draft-7' });
    expect((await api.exists(ALICE)).headers.get('ratelimit')).toBe(
      'limit=20, remaining=19, reset=1',
    );
    await api.dev('/config', json({ behavior: { headers: 'draft-6' } }));
    const draft6 = await api.exists(ALICE);
    expect(draft6.headers.get('ratelimit-remaining')).toBe('18');
    expect(draft6.headers.get('ratelimit-policy')).toBe('20;w=2');
    await api.dev('/config', json({ behavior: { headers: 'none' } }));
    const none = await api.exists(ALICE);
    expect(none.headers.get('ratelimit')).toBeNull();
    expect(none.headers.get('uas-bucket')).toBe('client:demo');
  });
});

describe.each(TRANSPORTS)('the test controls of the dev API over $name', (transport) => {
  let target: AnyTarget | undefined;
  afterEach(async () => {
    await target?.close();
    target = undefined;
  });
  const start = async (options?: TargetOptions) => {
    target = await transport.start(options);
    return {
      target,
      api: createApi(target.baseUrl),
      dev: createDevClient(target.baseUrl),
    };
  };

  it('resets everything: buckets, codes, journal, users, counters, config, faults and the clock', async () => {
    const { api, dev, target } = await start();
    await api.exists(`${ALICE}&caller_id=1.2.3.4`);
    await api.start({ email: 'alice@example.com' });
    await dev.addUsers([{ email: 'dave@example.com' }]);
    await dev.configure({ limits: { caller: { burst: 2 } } });
    await dev.failNext({ status: 503 });
    await dev.advanceClock(60_000);
    await dev.reset();
    expect((await dev.buckets()).total).toBe(0);
    expect(await dev.latestCode('alice@example.com')).toBeUndefined();
    expect(await dev.requests()).toEqual([]);
    expect((await api.exists('email=dave%40example.com')).body.exists).toBe(false);
    expect(await dev.faults()).toEqual([]);
    expect((await dev.clock()).now_ms).toBe(START_TIME);
    expect(target.emulator.config.limits.caller.burst).toBe(5);
    expect(await dev.metrics()).not.toContain('status="200"} 2');
    const [first] = await dev.requests();
    expect(first).toMatchObject({ id: 1, email: 'dave@example.com', status: 200 });
  });

  it('returns the recorded requests matching a filter, oldest first, without the code', async () => {
    const { api, dev } = await start();
    await api.start({ email: 'alice@example.com', caller_id: '203.0.113.7' });
    await api.start({ email: 'bob@example.com' });
    const code = (await dev.latestCode('alice@example.com'))!.code;
    await api.verify({
      email: 'alice@example.com',
      verification_code: code,
      caller_id: '203.0.113.7',
    });
    const alice = await dev.requests({ email: 'ALICE@example.com' });
    expect(alice.map((entry) => entry.operation)).toEqual(['start', 'verify']);
    expect(alice[1]).toMatchObject({
      caller_id: '203.0.113.7',
      caller_id_source: 'body',
      status: 200,
      outcome: 'allowed',
      fields: { email: 'alice@example.com', caller_id: '203.0.113.7' },
    });
    expect(JSON.stringify(alice)).not.toContain(code);
    expect(await dev.requests({ operation: 'start', callerId: null })).toEqual([
      expect.objectContaining({ email: 'bob@example.com' }),
    ]);
    expect((await api.dev('/requests?status=9999')).status).toBe(400);
  });

  it('pages the recorded requests: next_after_id says where the next page starts, null at the newest', async () => {
    const { api, dev } = await start();
    for (const name of ['ann', 'ben', 'cat', 'dan', 'eve'])
      await api.exists(`email=${name}%40example.com`);
    const ids = (reply: { body: Record<string, unknown> }) =>
      (reply.body.requests as Array<{ id: number }>).map((record) => record.id);
    const first = await api.dev('/requests?limit=2');
    expect(ids(first)).toEqual([1, 2]);
    expect(first.body).toMatchObject({ dropped: 0, next_after_id: 2 });
    const second = await api.dev('/requests?limit=2&after_id=2');
    expect(ids(second)).toEqual([3, 4]);
    expect(second.body.next_after_id).toBe(4);
    const last = await api.dev('/requests?limit=2&after_id=4');
    expect(ids(last)).toEqual([5]);
    expect(last.body.next_after_id).toBeNull();
    expect((await api.dev('/requests?limit=5')).body.next_after_id).toBeNull();
    // The dev client follows the pages to the newest.
    expect((await dev.requests()).map((record) => record.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it("lists the users it has now in pages: the config's, then those added live, less those removed", async () => {
    const { api, target } = await start();
    const dev = createDevClient(target.baseUrl);
    expect(await dev.users()).toEqual({
      total: 3,
      offset: 0,
      next_offset: null,
      users: [
        { email: 'alice@example.com', phone_number: '+14155550101', token_count: 2 },
        { email: 'bob@example.com', token_count: 0 },
        { email: 'carol@example.com', phone_number: '+447700900123', token_count: 1 },
      ],
    });
    await dev.addUsers([
      { email: 'dave@example.com', token_count: 3 },
      { email: 'erin@example.com' },
    ]);
    await dev.removeUser('alice@example.com');
    // One replaced keeps its place, as given the second time.
    await dev.addUsers([{ email: 'BOB@example.com', token_count: 9 }]);
    const first = await dev.users({ limit: 2 });
    expect(first).toMatchObject({ total: 4, offset: 0, next_offset: 2 });
    expect(first.users.map((user) => user.email)).toEqual(['BOB@example.com', 'carol@example.com']);
    const second = await dev.users({ offset: first.next_offset ?? 0, limit: 2 });
    expect(second).toMatchObject({ total: 4, offset: 2, next_offset: null });
    expect(second.users).toEqual([
      { email: 'dave@example.com', token_count: 3 },
      { email: 'erin@example.com', token_count: 0 },
    ]);
    expect((await dev.users({ offset: 9 })).users).toEqual([]);
    // One user by its e-mail, in any case: a page of one, or of none.
    expect(await dev.users({ email: 'Dave@Example.com' })).toEqual({
      total: 1,
      offset: 0,
      next_offset: null,
      users: [{ email: 'dave@example.com', token_count: 3 }],
    });
    expect(await dev.users({ email: 'alice@example.com' })).toMatchObject({ total: 0, users: [] });
    for (const query of ['limit=0', 'limit=100001', 'offset=-1', 'limit=two', 'offset=1e3'])
      expect((await api.dev(`/users?${query}`)).status, query).toBe(400);
  });

  it('shows no traffic to a web page of another origin: requests, journal, codes, events and the check refuse it', async () => {
    const { api } = await start();
    await api.exists(ALICE);
    await api.start({ email: 'alice@example.com' });
    const paths = [
      '/requests',
      '/journal',
      '/check',
      '/codes',
      '/codes/alice%40example.com',
      '/events',
      '/users',
    ];
    for (const path of paths)
      for (const headers of [
        { origin: 'http://evil.example' },
        { 'sec-fetch-site': 'cross-site' },
      ] as Array<Record<string, string>>) {
        const refused = await api.dev(path, { headers });
        expect(refused.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(refused.body.type).toBe('urn:uas:problem:cross-origin-refused');
      }
    // A page of the same origin (a browser sends no Origin on its own GETs), a tool, and reads
    // that show no traffic go on.
    expect((await api.dev('/check', { headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(
      200,
    );
    expect((await api.dev('/requests')).status).toBe(200);
    expect((await api.dev('/health', { headers: { origin: 'http://evil.example' } })).status).toBe(
      200,
    );
  });

  it('applies scripted faults in order, to the operation named, without charging a bucket', async () => {
    const { api, dev } = await start();
    await dev.failNext({ operation: 'start', status: 503, count: 2, retryAfter: 7 });
    await dev.failNext({ status: 429, retryAfter: 3 });
    expect(await dev.faults()).toEqual([
      expect.objectContaining({ operation: 'start', status: 503, remaining: 2 }),
      expect.objectContaining({ operation: null, status: 429, remaining: 1 }),
    ]);
    const exists = await api.exists(`${ALICE}&caller_id=c`);
    expect(exists.status).toBe(429);
    expect(exists.headers.get('retry-after')).toBe('3');
    expect(exists.body.detail).toContain('scripted by failNext');
    for (let index = 0; index < 2; index++) {
      const start = await api.start({ email: 'alice@example.com', caller_id: 'c' });
      expect(start.status).toBe(503);
      expect(start.headers.get('retry-after')).toBe('7');
      expect(start.body.type).toBe('urn:uas:problem:service-unavailable');
    }
    expect((await api.start({ email: 'alice@example.com', caller_id: 'c' })).status).toBe(200);
    expect(await dev.faults()).toEqual([]);
    // None of the scripted answers took a token: one real start took one of five.
    expect((await dev.bucket('caller:demo:c'))?.remaining).toBe(4);
    const refused = await api.dev('/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 418 }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain('expected 429, 500 or 503');
  });

  it('refuses a fault with a field it does not know, and a free-text filter given twice', async () => {
    const { api, dev } = await start();
    const refused = await api.dev('/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ opertion: 'start', status: 503 }),
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(refused.body.detail).toBe('opertion: unknown field (did you mean "operation"?)');
    expect(await dev.faults()).toEqual([]);
    const twice = await api.dev('/requests?email=a%40b.co&email=c%40d.co');
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({
      type: 'urn:uas:problem:duplicate-parameter',
      detail: 'email is given 2 times; give it once',
    });
  });

  it('delays a scripted answer on the manual clock until it is moved', async () => {
    const { api, target } = await start();
    target.emulator.failNext({ operation: 'exists', latencyMs: 3_000 });
    let answered = false;
    const pending = api.exists(ALICE).then((reply) => {
      answered = true;
      return reply;
    });
    // A wait for something that must not happen (an answer before the clock moves): there is
    // no event to await, so it gives one 100 ms to show.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered).toBe(false);
    target.clock.advance(3_000);
    expect((await pending).status).toBe(200);
  });

  it('moves a manual clock over HTTP, and refuses bad moves', async () => {
    const { api, dev } = await start();
    await api.exists(`${ALICE}&caller_id=c`);
    expect((await dev.bucket('caller:demo:c'))?.remaining).toBe(4);
    const moved = await dev.advanceClock(1_000);
    expect(moved).toEqual({
      mode: 'manual',
      now: new Date(START_TIME + 1_000).toISOString(),
      now_ms: START_TIME + 1_000,
    });
    expect((await dev.bucket('caller:demo:c'))?.remaining).toBe(5);
    expect((await dev.setClock('2027-01-01T00:00:00Z')).now).toBe('2027-01-01T00:00:00.000Z');
    const clock = (body: unknown) =>
      api.dev('/clock', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await clock({ advance_ms: -1 })).status).toBe(400);
    expect((await clock({ set: 'yesterday' })).status).toBe(400);
    expect((await clock({ advance_ms: 1, set: 1 })).status).toBe(400);
    // Times a Date cannot carry a year past (a code's expiry) are refused, and nothing moves.
    expect((await clock({ set: '+275760-09-13T00:00:00Z' })).status).toBe(400);
    expect((await clock({ advance_ms: 8e15 })).status).toBe(400);
    expect((await dev.clock()).now).toBe('2027-01-01T00:00:00.000Z');
    expect((await dev.setClock('9999-12-31T23:59:59.999Z')).now).toBe('9999-12-31T23:59:59.999Z');
    await api.start({ email: 'alice@example.com' });
    expect((await dev.latestCode('alice@example.com'))?.expires_at).toMatch(/^\+010000-/);
  });
});
