import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyEmulator, Emulator } from '../../src/core/emulator.js';
import type { EmulatorRequest } from '../../src/core/service/exchange.js';
import { createManualClock } from '../../src/core/time/clock.js';
import { createSeededRandom } from '../../src/core/time/random.js';
import {
  DEMO_CONFIG,
  DEMO_MERCHANT,
  DEMO_TOKEN,
  OTHER_MERCHANT,
  OTHER_TOKEN,
} from '../../src/demo-config.js';
import { createEmulator } from '../../src/emulator.js';
import { useTransports, type AnyTarget } from '../helpers/targets.js';

const TRANSPORTS = useTransports();

/** Outcomes of requests refused before their operation runs: they must change nothing. */
const REFUSED = new Set(['invalid', 'unauthenticated', 'unrouted', 'rate-limited', 'injected-429']);

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    'alice@example.com',
    'bob@example.com',
    '+14155550101',
    '%',
    '%zz',
    '123456',
    'x'.repeat(300),
    '\u00e9\u4e2d',
    'null',
  ),
);
const pathArb = fc.oneof(
  fc.constantFrom(
    '/v1/users/exists',
    `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`,
    `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/verify`,
    `/v1/merchants/${OTHER_MERCHANT}/users/passwordless/start`,
    '/v1/merchants/not-a-uuid/users/passwordless/verify',
    '/v1/merchants//users/passwordless/start',
    '/v1/users/exists/',
    '/v1',
    '/',
    '/v2/users/exists',
  ),
  fc
    .array(fc.stringMatching(/^[A-Za-z0-9._~%-]{0,12}$/), { maxLength: 5 })
    .map((parts) => `/${parts.join('/')}`),
);
const queryArb = fc
  .array(fc.tuple(fc.constantFrom('email', 'phone_number', 'caller_id', 'junk', ''), text), {
    maxLength: 4,
  })
  .map((pairs) =>
    pairs.length === 0
      ? ''
      : `?${pairs.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&')}`,
  );
const authArb = fc.constantFrom(
  undefined,
  `Bearer ${DEMO_TOKEN}`,
  `Bearer ${OTHER_TOKEN}`,
  'Bearer',
  'Bearer unknown-token',
  'Basic YTpi',
  `bearer ${DEMO_TOKEN}`,
  'Bearer a b',
);
const typeArb = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/problem+json',
  'multipart/form-data',
  '',
);
const bodyArb = fc.oneof(
  fc.constant(undefined),
  fc
    .record(
      {
        email: fc.oneof(text, fc.integer(), fc.constant(null)),
        caller_id: fc.oneof(text, fc.integer(), fc.boolean()),
        verification_code: fc.oneof(text, fc.integer()),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 60 }),
  fc.constant('x'.repeat(20_000)),
  fc.constant('{"email":'),
);
const methodArb = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS');
const requestArb = fc.record({
  method: methodArb,
  path: pathArb,
  query: queryArb,
  authorization: authArb,
  contentType: typeArb,
  body: bodyArb,
});
type Generated = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

/** The state a refused request must not touch: bucket tokens, codes, users. */
async function stateOf(emulator: AnyEmulator): Promise<string> {
  const buckets = (await emulator.listBuckets({ limit: 100_000, sort: 'key' })).buckets.map(
    (bucket) => [bucket.key, bucket.tokens, bucket.allowed],
  );
  const users: Array<number | null> = [];
  for (const email of ['alice@example.com', 'bob@example.com', 'carol@example.com'])
    users.push((await emulator.latestCode(email))?.attempts_left ?? null);
  return JSON.stringify({ buckets, codes: await emulator.listCodes(), users });
}

function assertAnswer(
  status: number,
  contentType: string | null,
  bodyText: string,
  method: string,
): void {
  expect(status).toBeGreaterThanOrEqual(200);
  expect(status).toBeLessThan(500);
  if (status >= 400 && method !== 'HEAD') {
    expect(contentType).toBe('application/problem+json');
    const problem = JSON.parse(bodyText) as Record<string, unknown>;
    expect(problem).toMatchObject({
      status,
      type: expect.any(String),
      title: expect.any(String),
      detail: expect.any(String),
    });
  }
}

function makeEmulator(): Emulator {
  const emulator = createEmulator({
    config: DEMO_CONFIG,
    clock: createManualClock(Date.UTC(2026, 0, 1)),
    random: createSeededRandom(5),
  });
  // Some state for refused requests to leave alone: a code and a half-used bucket.
  emulator.handle({
    method: 'POST',
    url: `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`,
    headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
    body: '{"email":"alice@example.com","caller_id":"seed"}',
  });
  return emulator;
}

describe('any request to the core', () => {
  it('gets a 2xx or 4xx answer, a problem+json body on errors, and changes nothing when refused', async () => {
    const emulator = makeEmulator();
    await fc.assert(
      fc.asyncProperty(requestArb, async (generated: Generated) => {
        const before = await stateOf(emulator);
        const headers: Record<string, string> = {};
        if (generated.authorization !== undefined) headers.authorization = generated.authorization;
        if (generated.contentType !== undefined) headers['content-type'] = generated.contentType;
        const request: EmulatorRequest = {
          method: generated.method,
          url: `${generated.path}${generated.query}`,
          headers,
          body: generated.body,
          bodyBytes: generated.body === undefined ? 0 : Buffer.byteLength(generated.body),
        };
        const response = emulator.handle(request);
        assertAnswer(
          response.status,
          response.headers['content-type'] ?? null,
          JSON.stringify(response.body),
          request.method,
        );
        const outcome = emulator.journal(1)[0]?.outcome;
        if (outcome !== undefined && REFUSED.has(outcome))
          expect(await stateOf(emulator)).toBe(before);
      }),
      { numRuns: 1500, seed: 42 },
    );
  });
});

describe.each(TRANSPORTS)('any request over $name', (transport) => {
  let target: AnyTarget;
  beforeAll(async () => {
    target = await transport.start();
    await target.emulator.handle({
      method: 'POST',
      url: `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`,
      headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
      body: '{"email":"alice@example.com","caller_id":"seed"}',
    });
  });
  afterAll(async () => {
    await target.close();
  });

  it('gets a 2xx or 4xx problem+json answer and changes nothing when refused', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (generated: Generated) => {
        const before = await stateOf(target.emulator);
        const headers: Record<string, string> = {};
        if (generated.authorization !== undefined) headers.authorization = generated.authorization;
        if (generated.contentType !== undefined) headers['content-type'] = generated.contentType;
        const withBody = generated.method !== 'GET' && generated.body !== undefined;
        const journalBefore = target.emulator.journal(1)[0]?.id;
        const response = await fetch(`${target.baseUrl}${generated.path}${generated.query}`, {
          method: generated.method,
          headers,
          body: withBody ? generated.body : undefined,
        });
        assertAnswer(
          response.status,
          response.headers.get('content-type'),
          await response.text(),
          generated.method,
        );
        const entry = target.emulator.journal(1)[0];
        if (entry !== undefined && entry.id !== journalBefore && REFUSED.has(entry.outcome))
          expect(await stateOf(target.emulator)).toBe(before);
      }),
      { numRuns: 120, seed: 7 },
    );
  });
});
