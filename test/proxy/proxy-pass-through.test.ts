import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEMO_MERCHANT } from '../../src/demo-config.js';
import { QUOTA_EXCEEDED_TYPE } from '../../src/core/service/problems.js';
import { answer, useHostileServers, type RawHeader } from '../helpers/hostile-server.js';
import {
  configWith,
  rawExchange,
  REAL_TOKEN,
  useInstances,
  withoutConnectionHeaders,
} from '../helpers/proxy-stand-in.js';

const start = useInstances();
const hostile = useHostileServers();
const auth = { authorization: `Bearer ${REAL_TOKEN}` };
const startPath = `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`;

describe('uas serve --upstream: answers', () => {
  it('relays status, headers and body byte for byte, compressed bodies and repeated headers included', async () => {
    const body = gzipSync(Buffer.from('{"exists":true,"token_count":2}'));
    const headers: RawHeader[] = [
      ['Content-Type', 'application/json'],
      ['Content-Encoding', 'gzip'],
      ['Set-Cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
      ['RateLimit-Policy', '"burst";q=100;w=60'],
      ['RateLimit', '"burst";r=99;t=60'],
      ['X-Request-Id', 'r-17'],
    ];
    const real = await hostile((socket) => answer(socket, 200, headers, body));
    const proxy = await start(configWith({ callerBurst: 5 }), { base: real.url });
    const path = '/v1/users/exists?email=alice%40example.com';
    const direct = await rawExchange(`${real.url}${path}`, { headers: auth });
    const through = await rawExchange(`${proxy.url}${path}`, { headers: auth });
    expect(through.status).toBe(direct.status);
    expect(withoutConnectionHeaders(through.rawHeaders)).toEqual(
      withoutConnectionHeaders(direct.rawHeaders),
    );
    expect(through.body.equals(direct.body)).toBe(true);
    expect(through.body.equals(body)).toBe(true);
  });

  it('relays a 429 of the real service as it is, and journals it marked upstream with its Retry-After, RateLimit headers, problem type and bucket', async () => {
    const real = await start(configWith({ callerBurst: 1 }));
    const proxy = await start(configWith({ callerBurst: 1 }, 'another-token-of-the-proxy'), {
      base: real.url,
    });
    const send = () =>
      rawExchange(`${proxy.url}${startPath}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'alice@example.com', caller_id: 'shopper-1' }),
      });
    expect((await send()).status).toBe(200);
    const refused = await send();
    expect(refused.status).toBe(429);
    const [first, second] = proxy.emulator.requests();
    expect(first).toMatchObject({ status: 200, outcome: 'allowed', operation: 'start' });
    expect(first?.upstream?.answered_by).toBe('upstream');
    const retryAfter = Number(refused.rawHeaders[refused.rawHeaders.indexOf('retry-after') + 1]);
    expect(second).toMatchObject({
      status: 429,
      outcome: 'rate-limited',
      caller_id: 'shopper-1',
      caller_id_source: 'body',
      retry_after: retryAfter,
      problem: 'quota-exceeded',
      bucket: real.emulator.requests()[1]?.bucket,
      upstream: {
        answered_by: 'upstream',
        local: undefined,
        problem_type: QUOTA_EXCEEDED_TYPE,
        retry_after_text: String(retryAfter),
      },
    });
    expect(second?.upstream?.headers).toEqual(
      expect.arrayContaining(['ratelimit-policy', 'ratelimit', 'retry-after']),
    );
    // The real service saw both, and the proxy's own buckets were never asked.
    expect(real.emulator.requests()).toHaveLength(2);
    expect(proxy.emulator.listBuckets().total).toBe(0);
  });

  it('forwards a request body byte for byte, bytes that are not UTF-8 included', async () => {
    const real = await hostile((socket) => answer(socket, 200, [], '{}'));
    const proxy = await start(configWith({ callerBurst: 5 }), { base: real.url });
    const body = Buffer.from([0x7b, 0xff, 0xfe, 0xc3, 0x28, 0x80, 0x7d]);
    const reply = await rawExchange(`${proxy.url}${startPath}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/octet-stream' },
      body,
    });
    expect(reply.status).toBe(200);
    expect(real.requests[0]?.bodyBytes.equals(body)).toBe(true);
    expect(real.requests[0]?.headers['content-length']).toBe(String(body.length));
  });

  it('answers a fault script 409 with --enforce upstream: faults do not apply in front of the real service', async () => {
    const real = await hostile((socket) => answer(socket, 200, [], '{}'));
    const proxy = await start(configWith({ callerBurst: 5 }), { base: real.url });
    const reply = await rawExchange(`${proxy.url}/__uas/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'exists', status: 503 }),
    });
    expect(reply.status).toBe(409);
    expect(JSON.parse(reply.body.toString())).toMatchObject({
      type: 'urn:uas:problem:faults-not-applied',
    });
    const listed = await rawExchange(`${proxy.url}/__uas/faults`);
    expect(JSON.parse(listed.body.toString())).toMatchObject({ faults: [] });
  });

  it('answers a change of users 409 in every mode: the real service has its own users', async () => {
    const real = await hostile((socket) => answer(socket, 200, [], '{"exists":true}'));
    for (const enforce of ['upstream', 'local', 'shadow'] as const) {
      const proxy = await start(configWith({ callerBurst: 5 }), { base: real.url, enforce });
      const added = await rawExchange(`${proxy.url}/__uas/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ users: [{ email: 'ghost@example.com' }] }),
      });
      const removed = await rawExchange(`${proxy.url}/__uas/users/alice%40example.com`, {
        method: 'DELETE',
      });
      for (const reply of [added, removed]) {
        expect(reply.status).toBe(409);
        expect(JSON.parse(reply.body.toString())).toMatchObject({
          type: 'urn:uas:problem:users-not-applied',
        });
      }
      const listed = await rawExchange(`${proxy.url}/__uas/users`);
      expect(JSON.parse(listed.body.toString())).toMatchObject({ total: 3 });
    }
    expect(real.requests).toEqual([]);
  });

  it("answers a read of a user's latest code 409: the real service sends the codes", async () => {
    const real = await hostile((socket) => answer(socket, 200, [], '{"exists":true}'));
    const proxy = await start(configWith({ callerBurst: 5 }), { base: real.url });
    for (const path of [
      '/__uas/codes/alice%40example.com',
      '/__uas/codes?email=alice%40example.com',
    ]) {
      const reply = await rawExchange(`${proxy.url}${path}`);
      expect(reply.status, path).toBe(409);
      expect(JSON.parse(reply.body.toString())).toMatchObject({
        type: 'urn:uas:problem:codes-not-seen',
        detail: expect.stringContaining('uas never sees it'),
      });
    }
    // The list of live codes is uas's own, and empty.
    const listed = await rawExchange(`${proxy.url}/__uas/codes`);
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body.toString())).toEqual({ codes: [] });
    expect(real.requests).toEqual([]);
  });

  it('refuses a change of users or a scripted fault written with a trailing slash, as the dev API routes it', async () => {
    const real = await hostile((socket) => answer(socket, 200, [], '{"exists":true}'));
    const proxy = await start(configWith({ callerBurst: 5 }), { base: real.url });
    const json = { 'content-type': 'application/json' };
    const added = await rawExchange(`${proxy.url}/__uas/users/`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ users: [{ email: 'ghost@example.com' }] }),
    });
    expect(added.status).toBe(409);
    expect(JSON.parse(added.body.toString())).toMatchObject({
      type: 'urn:uas:problem:users-not-applied',
    });
    const fault = await rawExchange(`${proxy.url}/__uas/faults/`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ operation: 'exists', status: 503 }),
    });
    expect(fault.status).toBe(409);
    expect(JSON.parse(fault.body.toString())).toMatchObject({
      type: 'urn:uas:problem:faults-not-applied',
    });
    // A path the dev API routes nowhere is its own answer (405), not a change refused.
    const noItem = await rawExchange(`${proxy.url}/__uas/users/`, { method: 'DELETE' });
    expect(noItem.status).toBe(405);
    const listed = await rawExchange(`${proxy.url}/__uas/users`);
    expect(JSON.parse(listed.body.toString())).toMatchObject({ total: 3 });
    const faults = await rawExchange(`${proxy.url}/__uas/faults`);
    expect(JSON.parse(faults.body.toString())).toMatchObject({ faults: [] });
    expect(real.requests).toEqual([]);
  });

  it('never forwards the dev API, nor a path off the three operations', async () => {
    const real = await hostile((socket) => answer(socket, 200, [], 'forwarded'));
    const proxy = await start(configWith({ callerBurst: 5 }), { base: real.url });
    const health = await rawExchange(`${proxy.url}/__uas/health`);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body.toString())).toMatchObject({ status: 'ok' });
    const other = await rawExchange(`${proxy.url}/v1/admin/everything`, { headers: auth });
    expect(other.status).toBe(404);
    expect(real.requests).toEqual([]);
  });
});
