import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type EmulatorHttpServer } from '../../src/adapters/http/http-server.js';
import { createOpenApiDocument } from '../../src/contract/openapi-document.js';
import type { JsonSchema, OpenApiDocument } from '../../src/contract/openapi-types.js';
import { createManualClock } from '../../src/core/time/clock.js';
import { createSeededRandom } from '../../src/core/time/random.js';
import { DEMO_CONFIG, OTHER_MERCHANT } from '../../src/demo-config.js';
import { createEmulator } from '../../src/emulator.js';
import { createApi, type Reply } from '../helpers/api.js';
import {
  startPrismProxy,
  violationsOf,
  type PrismProxy,
  type PrismViolation,
} from './prism-proxy.js';

/** Small buckets that never refill within the test, and a fixed code. */
const CONFIG = {
  ...DEMO_CONFIG,
  limits: { client: { burst: 8, rate: '1/h' }, caller: { burst: 2, rate: '1/h' } },
  otp: { mode: 'fixed:123456' },
};

/** A member no answer of uas has: a copy of the document that requires it cannot pass. */
const NEVER_SENT = 'uas_never_sends_this';

/** The document with every answer's body schema made to require {@link NEVER_SENT}. */
function brokenCopy(document: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(document);
  for (const name of ['ExistsAnswer', 'StartAnswer', 'VerifyAnswer', 'Problem']) {
    const schema = copy.components.schemas[name] as JsonSchema & { required: string[] };
    schema.required = [...schema.required, NEVER_SENT];
  }
  return copy;
}

/** One exchange through Prism: what was sent, what came back, what Prism said of it. */
interface Exchange {
  what: string;
  status: number;
  /** The request was made to break the document (Prism may say so). */
  invalidRequest: boolean;
  request: PrismViolation[];
  response: PrismViolation[];
}

/**
 * Sends the three operations through `base` with each kind of answer: 200 with and without
 * caller_id, 400, 401, 403, 404, 409, 422, and 429 from a caller bucket and from the client bucket.
 */
async function sendTraffic(base: string): Promise<Exchange[]> {
  const api = createApi(base);
  const exchanges: Exchange[] = [];
  const note = (what: string, reply: Reply, invalidRequest = false) => {
    const violations = violationsOf(reply.headers);
    exchanges.push({
      what,
      status: reply.status,
      invalidRequest,
      request: violations.filter((violation) => violation.location[0] === 'request'),
      response: violations.filter((violation) => violation.location[0] !== 'request'),
    });
  };
  const alice = 'alice@example.com';
  note('exists, caller_id', await api.exists('email=alice%40example.com&caller_id=203.0.113.7'));
  note('exists, no caller_id', await api.exists('email=nobody%40example.com'));
  note('exists by phone', await api.exists('phone_number=%2B14155550101&caller_id=a1'));
  note('exists, bad e-mail', await api.exists('email=not-an-email&caller_id=a2'), true);
  note('exists, no e-mail', await api.exists('caller_id=a3'));
  note('exists, no token', await api.exists('email=alice%40example.com', { token: null }), true);
  note('exists, unknown token', await api.exists('caller_id=a4', { token: 'unknown-token-1' }));
  note('start, caller_id', await api.start({ email: alice, caller_id: 's1' }));
  note('start, no caller_id', await api.start({ email: 'bob@example.com' }));
  note('start, bad e-mail', await api.start({ email: 'x', caller_id: 's2' }), true);
  note('start, other merchant', await api.start({ email: alice }, { merchant: OTHER_MERCHANT }));
  const unknown = '00000000-0000-4000-8000-000000000000';
  note(
    'start, no merchant',
    await api.start({ email: alice, caller_id: 's3' }, { merchant: unknown }),
  );
  note('start, no token', await api.start({ email: alice }, { token: null }), true);
  const code = (verification_code: string, caller_id?: string) =>
    api.verify({
      email: alice,
      verification_code,
      ...(caller_id === undefined ? {} : { caller_id }),
    });
  note('verify, wrong code', await code('000000', 'v1'));
  note('verify, no code', await api.verify({ email: alice, caller_id: 'v2' }), true);
  note('verify, right code', await code('123456'));
  note('verify, used code', await code('123456', 'v3'));
  note(
    'verify, no merchant',
    await api.verify({ email: alice, verification_code: '1' }, { merchant: unknown }),
  );
  // The caller bucket of "drained" holds 2 tokens, then each operation is refused.
  await api.exists('email=alice%40example.com&caller_id=drained');
  await api.exists('email=alice%40example.com&caller_id=drained');
  note(
    'exists, caller bucket empty',
    await api.exists('email=alice%40example.com&caller_id=drained'),
  );
  note('start, caller bucket empty', await api.start({ email: alice, caller_id: 'drained' }));
  note('verify, caller bucket empty', await code('123456', 'drained'));
  // The client bucket (8 tokens): the requests without caller_id above took 3.
  for (let sent = 0; sent < 8; sent++) {
    const reply = await api.exists('email=alice%40example.com');
    if (reply.status === 429) break;
  }
  note('exists, client bucket empty', await api.exists('email=alice%40example.com'));
  note('start, client bucket empty', await api.start({ email: alice }));
  note('verify, client bucket empty', await code('123456'));
  return exchanges;
}

describe('Prism, as a validation proxy in front of the emulator', () => {
  let directory: string;
  const servers: EmulatorHttpServer[] = [];
  const proxies: PrismProxy[] = [];
  let good: PrismProxy;
  let broken: PrismProxy;

  /** A fresh emulator on loopback, behind Prism with `document`. */
  const start = async (document: OpenApiDocument, name: string) => {
    const emulator = createEmulator({
      config: CONFIG,
      clock: createManualClock(Date.UTC(2026, 0, 1, 12)),
      random: createSeededRandom(5),
    });
    const server = await listen(emulator, 0, '127.0.0.1');
    servers.push(server);
    const file = join(directory, `${name}.json`);
    await writeFile(file, JSON.stringify(document, null, 2));
    const proxy = await startPrismProxy(file, server.url);
    proxies.push(proxy);
    return proxy;
  };

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'uas-prism-'));
    const document = createOpenApiDocument(createEmulator({ config: CONFIG }).config);
    [good, broken] = await Promise.all([
      start(document, 'service'),
      start(brokenCopy(document), 'broken'),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await Promise.all(servers.map((server) => server.close(100)));
    await rm(directory, { recursive: true, force: true });
  });

  it('reports every answer of a copy of the document that requires a member uas never sends', async () => {
    const exchanges = await sendTraffic(broken.url);
    for (const exchange of exchanges)
      expect(
        exchange.response.map((violation) => violation.message),
        `${exchange.what} (${exchange.status})\n${broken.output().slice(-2000)}`,
      ).toContain(`Response body must have required property '${NEVER_SENT}'`);
  }, 30_000);

  it('reports no violation of the document on any answer, and none on a request that keeps to it', async () => {
    const exchanges = await sendTraffic(good.url);
    expect(exchanges.map((exchange) => `${exchange.what}: ${exchange.status}`)).toEqual([
      'exists, caller_id: 200',
      'exists, no caller_id: 200',
      'exists by phone: 200',
      'exists, bad e-mail: 400',
      'exists, no e-mail: 400',
      'exists, no token: 401',
      'exists, unknown token: 401',
      'start, caller_id: 200',
      'start, no caller_id: 200',
      'start, bad e-mail: 400',
      'start, other merchant: 403',
      'start, no merchant: 404',
      'start, no token: 401',
      'verify, wrong code: 422',
      'verify, no code: 400',
      'verify, right code: 200',
      'verify, used code: 409',
      'verify, no merchant: 404',
      'exists, caller bucket empty: 429',
      'start, caller bucket empty: 429',
      'verify, caller bucket empty: 429',
      'exists, client bucket empty: 429',
      'start, client bucket empty: 429',
      'verify, client bucket empty: 429',
    ]);
    for (const exchange of exchanges) {
      const where = `${exchange.what} (${exchange.status})`;
      expect(exchange.response, where).toEqual([]);
      if (!exchange.invalidRequest) expect(exchange.request, where).toEqual([]);
    }
    // Prism reads requests too: a request made to break the document is named.
    expect(
      exchanges.filter((exchange) => exchange.invalidRequest && exchange.request.length === 0),
    ).toEqual([]);
  }, 30_000);
});
