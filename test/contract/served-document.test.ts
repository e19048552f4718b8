import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDevApiDocument } from '../../src/contract/dev-api-document.js';
import { createOpenApiDocument } from '../../src/contract/openapi-document.js';
import { createResponseValidator } from '../../src/contract/response-validator.js';
import { DEV_API_ROUTES } from '../../src/core/admin/dev-api-table.js';
import { DEMO_MERCHANT } from '../../src/demo-config.js';
import { createApi } from '../helpers/api.js';
import { destroySockets, rawRequest } from '../helpers/raw-http.js';
import { TRANSPORTS, type Target } from '../helpers/targets.js';

describe.each(TRANSPORTS)('GET /__uas/openapi.json over $name', (transport) => {
  let target: Target;
  let api: ReturnType<typeof createApi>;
  beforeEach(async () => {
    target = await transport.start();
    api = createApi(target.baseUrl);
  });
  afterEach(async () => {
    await target.close();
  });

  it('serves the document of the running config, naming the server it was fetched from', async () => {
    const reply = await api.dev('/openapi.json');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json');
    // In-process, msw's fetch sends no Host: the origin the handlers answer for is named then.
    const servers = reply.body.servers as Array<{ url: string }>;
    expect(servers[0]?.url).toBe(`http://${new URL(target.baseUrl).host}`);
    expect(reply.body).toEqual(
      JSON.parse(
        JSON.stringify(
          createOpenApiDocument(target.emulator.config, { serverUrl: servers[0]?.url }),
        ),
      ),
    );
    await api.dev('/config', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: '{"limits":{"caller":{"burst":2}}}',
    });
    const changed = await api.dev('/openapi.json');
    expect(JSON.stringify(changed.body)).toContain('"caller\\";q=2;w=2');
  });

  it('serves the dev API document, and refuses a document it does not know', async () => {
    const reply = await api.dev('/openapi.json?document=dev-api');
    const serverUrl = (reply.body.servers as Array<{ url: string }>)[0]?.url;
    expect(reply.body).toEqual(
      JSON.parse(JSON.stringify(createDevApiDocument(target.emulator.config, { serverUrl }))),
    );
    const unknown = await api.dev('/openapi.json?document=admin');
    expect(unknown.status).toBe(400);
    expect(unknown.body.type).toBe('urn:uas:problem:invalid-request');
  });

  it('answers the dev API as its document says', async () => {
    const document = createDevApiDocument(target.emulator.config);
    const validator = createResponseValidator(document);
    await api.exists('email=alice%40example.com&caller_id=203.0.113.7');
    await api.start({ email: 'alice@example.com' });
    const json = { 'content-type': 'application/json' };
    const calls: Array<[string, string, RequestInit?]> = [
      ['listRoutes', ''],
      ['health', '/health'],
      ['listBuckets', '/buckets?sort=key&limit=10'],
      ['listBuckets', '/buckets?limit=0'],
      ['getBucket', `/buckets/${encodeURIComponent('caller:demo:203.0.113.7')}`],
      ['getBucket', '/buckets/nope'],
      ['listCodes', '/codes'],
      ['listCodes', '/codes?email=alice%40example.com'],
      ['latestCode', `/codes/alice%40example.com?merchant_id=${DEMO_MERCHANT}`],
      ['latestCode', '/codes/nobody%40example.com'],
      ['journal', '/journal?limit=5'],
      ['listRequests', '/requests?operation=exists&caller_id='],
      ['listRequests', '/requests?status=abc'],
      ['check', '/check'],
      ['listFaults', '/faults'],
      [
        'failNext',
        '/faults',
        { method: 'POST', headers: json, body: '{"status":503,"retry_after":2}' },
      ],
      ['failNext', '/faults', { method: 'POST', headers: json, body: '{"status":418}' }],
      [
        'failNext',
        '/faults',
        { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' },
      ],
      ['clearFaults', '/faults', { method: 'DELETE' }],
      ['getClock', '/clock'],
      ['moveClock', '/clock', { method: 'POST', headers: json, body: '{"advance_ms":1000}' }],
      ['moveClock', '/clock', { method: 'POST', headers: json, body: '{"advance_ms":-1}' }],
      [
        'addUsers',
        '/users',
        { method: 'POST', headers: json, body: '{"users":[{"email":"dave@example.com"}]}' },
      ],
      ['listUsers', '/users?limit=2&offset=1'],
      ['listUsers', '/users?limit=0'],
      ['removeUser', '/users/dave%40example.com', { method: 'DELETE' }],
      ['removeUser', '/users/dave%40example.com', { method: 'DELETE' }],
      ['removeUser', '/users/dave', { method: 'DELETE' }],
      ['getConfig', '/config'],
      [
        'changeConfig',
        '/config',
        { method: 'PATCH', headers: json, body: '{"limits":{"caller":{"burst":0}}}' },
      ],
      [
        'changeConfig',
        '/config',
        { method: 'PATCH', headers: json, body: '{"behavior":{"chaos":0}}' },
      ],
      ['openapi', '/openapi.json'],
      [
        'resetBucket',
        `/buckets/${encodeURIComponent('caller:demo:203.0.113.7')}`,
        { method: 'DELETE' },
      ],
      ['resetBuckets', '/buckets', { method: 'DELETE' }],
      ['reset', '/reset', { method: 'POST' }],
      ['metrics', '/metrics'],
    ];
    for (const [operationId, path, init] of calls) {
      const reply = await api.dev(path, init);
      expect(
        validator.check(operationId, {
          status: reply.status,
          headers: reply.headers,
          body: reply.text,
        }),
        `${operationId} ${path} ${reply.status} ${reply.text.slice(0, 200)}`,
      ).toEqual([]);
    }
    const described = Object.values(document.paths).flatMap((methods) =>
      Object.values(methods).map((operation) => operation.operationId),
    );
    expect(described).toHaveLength(DEV_API_ROUTES.length);
    expect(new Set(calls.map(([operationId]) => operationId))).toEqual(
      new Set(described.filter((id) => id !== 'events')),
    );
  });
});

describe.each(
  TRANSPORTS.filter(
    (transport) => transport.name.includes('over HTTP') || transport.name.includes('node:http'),
  ),
)('GET /__uas/openapi.json without a usable Host over $name', (transport) => {
  let target: Target;
  beforeEach(async () => {
    target = await transport.start();
  });
  afterEach(async () => {
    destroySockets();
    await target.close();
  });

  it.each([
    ['an HTTP/1.0 request without Host', 'GET /__uas/openapi.json HTTP/1.0\r\n\r\n'],
    [
      'the dev API document, without Host',
      'GET /__uas/openapi.json?document=dev-api HTTP/1.0\r\n\r\n',
    ],
    [
      'a Host with an empty port',
      'GET /__uas/openapi.json HTTP/1.1\r\nHost: localhost:\r\nConnection: close\r\n\r\n',
    ],
    [
      'a Host whose port is past 65535',
      'GET /__uas/openapi.json HTTP/1.1\r\nHost: foo.localhost:99999\r\nConnection: close\r\n\r\n',
    ],
    [
      'a Host whose port is 0',
      'GET /__uas/openapi.json HTTP/1.1\r\nHost: 127.0.0.1:0\r\nConnection: close\r\n\r\n',
    ],
    [
      'a Host whose port is one past the last',
      'GET /__uas/openapi.json HTTP/1.1\r\nHost: [::1]:65536\r\nConnection: close\r\n\r\n',
    ],
  ])('names the address the server listens on for %s, not port 4010', async (_, request) => {
    const answer = await rawRequest(Number(new URL(target.baseUrl).port), request);
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    const document = JSON.parse(answer.body) as { servers: Array<{ url: string }> };
    expect(document.servers[0]?.url).toBe(target.baseUrl);
  });
});
