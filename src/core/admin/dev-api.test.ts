import { describe, expect, it } from 'vitest';
import { DEMO_CONFIG, DEMO_MERCHANT, DEMO_TOKEN } from '../../demo-config.js';
import { createCoreEmulator } from '../create-core-emulator.js';
import type { EmulatorRequest, EmulatorResponse } from '../service/exchange.js';
import { createManualClock } from '../time/clock.js';
import { createSeededRandom } from '../time/random.js';
import { BUCKET_KEY_MAX_LENGTH } from './dev-api-bounds.js';
import type { DevApiProviders } from './dev-api-providers.js';
import { DEV_API_ROUTES, DEV_API_TABLE } from './dev-api-table.js';

const START = Date.parse('2026-01-01T00:00:00Z');

/** An emulator on the memory store and a manual clock, with the providers given (if any). */
function emulatorWith(providers?: DevApiProviders) {
  const clock = createManualClock(START);
  const emulator = createCoreEmulator({
    config: DEMO_CONFIG,
    clock,
    random: createSeededRandom(1),
    providers,
  });
  return { clock, emulator };
}

const dev = (
  url: string,
  init: Partial<EmulatorRequest> = {},
): EmulatorRequest & { method: string } => ({
  method: 'GET',
  url: `/__uas${url}`,
  headers: {},
  ...init,
});

const json = (method: string, url: string, body: string): EmulatorRequest =>
  dev(url, { method, headers: { 'content-type': 'application/json' }, body });

const problemOf = (response: EmulatorResponse) =>
  response.body as { type: string; detail: string; errors?: Array<{ parameter?: string }> };

const exists = (callerId: string): EmulatorRequest => ({
  method: 'GET',
  url: `/v1/users/exists?email=alice%40example.com&caller_id=${callerId}`,
  headers: { authorization: `Bearer ${DEMO_TOKEN}` },
});

describe('the dev API router', () => {
  it('lists every route of the table, one line each, as GET /__uas answers', () => {
    const { emulator } = emulatorWith();
    const answer = emulator.handle(dev(''));
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    const routes = (answer.body as { routes: string[] }).routes;
    expect(routes).toEqual(DEV_API_ROUTES);
    expect(routes).toHaveLength(Object.keys(DEV_API_TABLE).length);
    expect(routes).toContain('GET    /__uas/health');
    expect(routes).toContain(
      'GET    /__uas/buckets?level=client|caller&sort=pressure|recent|key|rejected&limit=1..1000&offset=N&after=KEY&client=ID&search=TEXT',
    );
  });

  it('answers a route with what its handler makes of the emulator: the clock, moved by a body', () => {
    const { emulator } = emulatorWith();
    expect(emulator.handle(dev('/clock')).body).toEqual({
      mode: 'manual',
      now: '2026-01-01T00:00:00.000Z',
      now_ms: START,
    });
    const moved = emulator.handle(json('POST', '/clock', '{"advance_ms":1500}'));
    expect(moved.status).toBe(200);
    expect((moved.body as { now_ms: number }).now_ms).toBe(START + 1500);
  });

  it('reads query parameters as the table declares them: defaults, bounds and choices', () => {
    const { emulator } = emulatorWith();
    for (const callerId of ['a', 'b', 'c']) emulator.handle(exists(callerId));
    const page = emulator.handle(dev('/buckets?level=caller&sort=key&limit=2'));
    expect(page.body).toMatchObject({ total: 3, offset: 0, next_offset: 2 });
    const rest = emulator.handle(dev('/buckets?level=caller&sort=key&limit=2&offset=2'));
    expect(rest.body).toMatchObject({ total: 3, offset: 2, next_offset: null, next_after: null });
    // By key: the page before's last key is the cursor; total counts what follows it.
    expect(page.body).toMatchObject({ next_after: 'caller:demo:b' });
    const after = emulator.handle(
      dev('/buckets?level=caller&sort=key&limit=2&after=caller:demo:b'),
    );
    expect(after.body).toMatchObject({ total: 1, next_offset: null, next_after: null });
    expect((after.body as { buckets: Array<{ key: string }> }).buckets[0]?.key).toBe(
      'caller:demo:c',
    );
    // Other orders have no key cursor.
    expect(emulator.handle(dev('/buckets?limit=1')).body).toMatchObject({ next_after: null });
    const requests = emulator.handle(dev('/requests?caller_id=b&limit=5')).body as {
      requests: Array<{ caller_id: string }>;
    };
    expect(requests.requests.map((record) => record.caller_id)).toEqual(['b']);
  });

  it.each([
    [
      'a whole number out of bounds',
      '/buckets?limit=1001',
      'limit must be a whole number from 1 to 1000; got "1001"',
    ],
    [
      'a whole number that is not one',
      '/requests?status=abc',
      'status must be a whole number from 100 to 599; got "abc"',
    ],
    [
      'a key cursor without the key order',
      '/buckets?sort=recent&after=caller:demo:a',
      'after is a key to go on from in key order: it needs sort=key',
    ],
    [
      'a choice not offered',
      '/buckets?sort=size',
      'sort must be one of pressure, recent, key, rejected; got "size"',
    ],
    [
      'an empty e-mail to read the latest code of',
      '/codes?email=',
      'email is empty: give the e-mail address the code was sent to, or no email for every live code',
    ],
    [
      'an e-mail of spaces only to read the latest code of',
      '/codes?email=%20%20',
      'email is empty: give the e-mail address the code was sent to, or no email for every live code',
    ],
    [
      'an e-mail of spaces only in the path of the latest code',
      '/codes/%20',
      'email is empty: give the e-mail address the code was sent to, in the path: /__uas/codes/{email}',
    ],
    [
      'a filter longer than any record holds',
      `/requests?email=${'a'.repeat(257)}`,
      'email must be at most 256 characters; got 257',
    ],
  ])('refuses %s with a 400 naming the parameter', (_, url, detail) => {
    const { emulator } = emulatorWith();
    const answer = emulator.handle(dev(url));
    expect(answer.status).toBe(400);
    expect(problemOf(answer).type).toBe('urn:uas:problem:invalid-request');
    expect(problemOf(answer).detail).toBe(detail);
  });

  it('refuses a parameter given twice, whichever route reads it', () => {
    const { emulator } = emulatorWith();
    const answer = emulator.handle(dev(`/codes?merchant_id=${DEMO_MERCHANT}&merchant_id=x`));
    expect(answer.status).toBe(400);
    expect(problemOf(answer).type).toBe('urn:uas:problem:duplicate-parameter');
    expect(problemOf(answer).errors?.[0]?.parameter).toBe('merchant_id');
  });

  it('refuses an item longer than any the route can hold, and one not validly percent-encoded', () => {
    const { emulator } = emulatorWith();
    const long = emulator.handle(dev(`/buckets/${'k'.repeat(BUCKET_KEY_MAX_LENGTH + 1)}`));
    expect(long.status).toBe(400);
    expect(problemOf(long).detail).toBe(
      `the key must be at most ${BUCKET_KEY_MAX_LENGTH} characters; got ${BUCKET_KEY_MAX_LENGTH + 1}`,
    );
    const email = emulator.handle(dev(`/codes/${'a'.repeat(250)}%40example.com`));
    expect(email.status).toBe(400);
    const garbled = emulator.handle(dev('/buckets/%E0%A4%A'));
    expect(garbled.status).toBe(400);
    expect(problemOf(garbled).detail).toMatch(/not validly percent-encoded/);
  });

  it('answers 404 where no route is, and 405 with Allow for a method a resource does not take', () => {
    const { emulator } = emulatorWith();
    expect(emulator.handle(dev('/nothing')).status).toBe(404);
    expect(emulator.handle(dev('/health/item')).status).toBe(404);
    const wrong = emulator.handle(dev('/faults', { method: 'PUT' }));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('GET, POST, DELETE');
  });

  it('takes bodies only as JSON: 415 for another type, even on a write that reads none', () => {
    const { emulator } = emulatorWith();
    const plain = emulator.handle(
      dev('/faults', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }),
    );
    expect(plain.status).toBe(415);
    const reset = emulator.handle(
      dev('/reset', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }),
    );
    expect(reset.status).toBe(415);
    expect(emulator.faults()).toEqual([]);
    // Empty, but typed as what a form or a text/plain post sends: refused too.
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data'])
      expect(
        emulator.handle(dev('/reset', { method: 'POST', headers: { 'content-type': type } }))
          .status,
      ).toBe(415);
    emulator.handle(json('POST', '/faults', JSON.stringify({ status: 503 })));
    expect(
      emulator.handle(
        dev('/faults', { method: 'DELETE', headers: { 'content-type': 'text/plain' } }),
      ).status,
    ).toBe(415);
    expect(emulator.faults()).toHaveLength(1);
    // Untyped and empty (curl -X POST): taken.
    expect(emulator.handle(dev('/reset', { method: 'POST' })).status).toBe(200);
  });

  it('refuses a compressed body with 415, as the service does, and changes nothing', async () => {
    const { emulator } = emulatorWith();
    const addZoe = (coding: string) =>
      emulator.handle(
        dev('/users', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-encoding': coding },
          body: JSON.stringify({ users: [{ email: 'zoe@example.com' }] }),
        }),
      );
    for (const coding of ['gzip', 'br, identity', 'identity, gzip']) {
      const answer = addZoe(coding);
      expect(answer.status).toBe(415);
      expect(problemOf(answer).detail).toBe(
        `send the JSON body uncompressed: no content coding is read; got Content-Encoding ${JSON.stringify(coding)}`,
      );
    }
    expect(JSON.stringify((await emulator.handle(dev('/users'))).body)).not.toContain('zoe');
    // No coding at all: identity, however written, or an empty list.
    for (const coding of [' Identity ', 'identity, identity', ''])
      expect(addZoe(coding).status, coding).toBe(200);
    expect(JSON.stringify((await emulator.handle(dev('/users'))).body)).toContain('zoe');
  });

  it('refuses a compressed body with 415 on a write that reads no body, and changes nothing', () => {
    const { emulator } = emulatorWith();
    emulator.handle(json('POST', '/faults', JSON.stringify({ status: 503 })));
    for (const [method, path] of [
      ['POST', '/reset'],
      ['DELETE', '/faults'],
    ] as const) {
      const answer = emulator.handle(
        dev(path, {
          method,
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
          body: '{}',
        }),
      );
      expect(answer.status, path).toBe(415);
      expect(problemOf(answer).detail).toBe(
        'send the JSON body uncompressed: no content coding is read; got Content-Encoding "gzip"',
      );
    }
    expect(emulator.faults()).toHaveLength(1);
  });

  it('refuses a body that is not JSON, or nests too deep, and changes nothing', () => {
    const { emulator } = emulatorWith();
    const broken = emulator.handle(json('POST', '/faults', '{"status":'));
    expect(problemOf(broken).type).toBe('urn:uas:problem:malformed-json');
    const deep = emulator.handle(json('POST', '/faults', `${'['.repeat(65)}${']'.repeat(65)}`));
    expect(deep.status).toBe(400);
    expect(problemOf(deep).detail).toMatch(/nests deeper than 64 levels/);
    expect(emulator.faults()).toEqual([]);
  });

  it('refuses a body that gives a key twice in one object, naming it, and changes nothing', () => {
    const { emulator } = emulatorWith();
    const config = emulator.handle(dev('/config')).body;
    const patch = emulator.handle(
      json('PATCH', '/config', '{"limits":{"caller":{"burst":3},"caller":{"burst":4}}}'),
    );
    expect(patch.status).toBe(400);
    expect(problemOf(patch).detail).toMatch(/gives "caller" twice in one object/);
    expect(problemOf(patch).errors).toEqual([
      expect.objectContaining({ pointer: '#/limits/caller' }),
    ]);
    expect(emulator.handle(dev('/config')).body).toEqual(config);
    const users = emulator.handle(
      json(
        'POST',
        '/users',
        '{"users":[{"email":"yan@example.com"}],"users":[{"email":"zed@example.com"}]}',
      ),
    );
    expect(users.status).toBe(400);
    expect(emulator.handle(dev('/users?email=zed@example.com')).body).toMatchObject({ total: 0 });
    const fault = emulator.handle(json('POST', '/faults', '{"status":503,"status":500}'));
    expect(fault.status).toBe(400);
    expect(emulator.faults()).toEqual([]);
  });

  it('refuses a clock time given as text longer than any time is written', () => {
    const { emulator } = emulatorWith();
    const answer = emulator.handle(
      json('POST', '/clock', JSON.stringify({ set: `January 1, 2027${' '.repeat(60)}` })),
    );
    expect(answer.status).toBe(400);
    expect(emulator.clock.now()).toBe(START);
  });

  it('refuses a clock set to text that is not an ISO 8601 time, or to a day its month does not have', () => {
    const { emulator } = emulatorWith();
    for (const set of [
      '1',
      '1000',
      'March 7, 2026',
      'Sat Jan 03 2026',
      '2026-02-30T00:00:00Z',
      '2026-04-31',
    ]) {
      const answer = emulator.handle(json('POST', '/clock', JSON.stringify({ set })));
      expect(answer.status, set).toBe(400);
      expect(problemOf(answer).detail, set).toMatch(/^set must be an ISO 8601 time/);
    }
    expect(emulator.clock.now()).toBe(START);
    const leap = emulator.handle(
      json('POST', '/clock', JSON.stringify({ set: '2028-02-29T12:00:00Z' })),
    );
    expect(leap.status).toBe(200);
    expect(emulator.clock.now()).toBe(Date.parse('2028-02-29T12:00:00Z'));
  });

  it('answers 501 for the check and the documents when the emulator was assembled without their providers', () => {
    const { emulator } = emulatorWith();
    for (const url of ['/check', '/openapi.json']) {
      const answer = emulator.handle(dev(url));
      expect(answer.status).toBe(501);
      expect(problemOf(answer).type).toBe('urn:uas:problem:not-implemented');
    }
  });

  it('hands the providers the journal, oldest first, and what the request named', () => {
    const asked: unknown[] = [];
    const { emulator } = emulatorWith({
      checkReport: (records, context) => {
        asked.push({ ids: records.map((record) => record.id), dropped: context.dropped });
        return { judged: records.length };
      },
      servedDocument: (config, which, host, localOrigin) => {
        asked.push({ clients: config.clients.length, which, host, localOrigin });
        return { openapi: '3.1.0' };
      },
    });
    emulator.handle(exists('a'));
    emulator.handle(exists('b'));
    expect(emulator.handle(dev('/check')).body).toEqual({ judged: 2 });
    const document = emulator.handle(
      dev('/openapi.json?document=dev-api', {
        headers: { host: 'localhost:4010' },
        localOrigin: 'http://127.0.0.1:4010',
      }),
    );
    expect(document.body).toEqual({ openapi: '3.1.0' });
    expect(asked).toEqual([
      { ids: [1, 2], dropped: 0 },
      {
        clients: DEMO_CONFIG.clients.length,
        which: 'dev-api',
        host: 'localhost:4010',
        localOrigin: 'http://127.0.0.1:4010',
      },
    ]);
  });
});
