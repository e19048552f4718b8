import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenApiDocument } from '../../src/contract/openapi-document.js';
import { judgeRateLimitFields } from '../../src/contract/rate-limit-fields.js';
import {
  createResponseValidator,
  type ResponseValidator,
} from '../../src/contract/response-validator.js';
import { DEMO_MERCHANT, OTHER_MERCHANT, OTHER_TOKEN } from '../../src/demo-config.js';
import { createApi, type Reply } from '../helpers/api.js';
import { useTransports, type AnyTarget } from '../helpers/targets.js';

type Operation = 'exists' | 'start' | 'verify';

const ALICE = 'email=alice%40example.com';

/**
 * Every answer the emulator gives to the requests of the conformance suite, and to fuzzed ones,
 * must be one the OpenAPI document describes: status, content type, body and headers.
 */
const TRANSPORTS = useTransports();

describe.each(TRANSPORTS)('answers over $name', (transport) => {
  let target: AnyTarget;
  let api: ReturnType<typeof createApi>;
  let checked: number;
  beforeEach(async () => {
    target = await transport.start();
    api = createApi(target.baseUrl);
    checked = 0;
  });
  afterEach(async () => {
    await target.close();
  });

  /** The document of the running config, as `GET /__uas/openapi.json` would serve it now. */
  const validators = new WeakMap<object, ResponseValidator>();
  const validator = (): ResponseValidator => {
    const config = target.emulator.config;
    let found = validators.get(config);
    if (found === undefined) {
      found = createResponseValidator(createOpenApiDocument(config));
      validators.set(config, found);
    }
    return found;
  };

  /** Asserts a reply conforms; `uas-bucket` too whenever the request reached a bucket. */
  const conforms = (operation: Operation, reply: Reply, v = validator()) => {
    const differences = v.check(operation, {
      status: reply.status,
      headers: reply.headers,
      body: reply.text,
    });
    expect(differences, `${operation} ${reply.status} ${reply.text}`).toEqual([]);
    const beforeBucket = reply.status === 401 || reply.status === 413;
    expect(reply.headers.get('uas-bucket') === null, `uas-bucket on ${reply.status}`).toBe(
      beforeBucket,
    );
    // Well-formed beyond their patterns: parsed as structured fields, and coherent.
    const style = target.emulator.config.behavior.headers;
    if (!beforeBucket && style !== 'none')
      expect(judgeRateLimitFields(style, (name) => reply.headers.get(name)).problems).toEqual([]);
    checked++;
    return reply;
  };

  const configure = async (patch: unknown) => {
    const reply = await api.dev('/config', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(patch),
    });
    expect(reply.status).toBe(200);
  };

  it('conform for the existence check, its refusals and authentication', async () => {
    conforms('exists', await api.exists(ALICE));
    conforms('exists', await api.exists('email=nobody%40example.com&caller_id=203.0.113.7'));
    conforms('exists', await api.exists('phone_number=%2B14155550101'));
    conforms('exists', await api.exists(''));
    conforms('exists', await api.exists(`${ALICE}&phone_number=%2B14155550101`));
    conforms('exists', await api.exists(`${ALICE}&${ALICE}`));
    conforms('exists', await api.exists(`${ALICE}&caller_id=`));
    conforms('exists', await api.exists(`${ALICE}&caller_id=${'x'.repeat(257)}`));
    conforms('exists', await api.exists('email=not-an-email'));
    conforms('exists', await api.exists(ALICE, { token: null }));
    conforms(
      'exists',
      await api.exists(ALICE, { token: null, headers: { authorization: 'Basic abc' } }),
    );
    conforms('exists', await api.exists(ALICE, { token: 'not-a-known-token' }));
    expect(checked).toBe(12);
  });

  it('conform for start and verify through every outcome of a code', async () => {
    const alice = { email: 'alice@example.com', caller_id: '198.51.100.4' };
    conforms('start', await api.start(alice));
    conforms('start', await api.start({ email: 'nobody@example.com' }));
    conforms('start', await api.start(alice, { merchant: OTHER_MERCHANT }));
    conforms('start', await api.start(alice, { merchant: '00000000-0000-4000-8000-000000000000' }));
    conforms('start', await api.start(alice, { merchant: 'not-a-uuid' }));
    conforms('start', await api.start(alice, { token: OTHER_TOKEN }));
    conforms(
      'start',
      await api.start('email=alice', { headers: { 'content-type': 'text/plain' } }),
    );
    conforms('start', await api.start('{"email":'));
    conforms('start', await api.start(''));
    conforms('start', await api.start('[1]'));
    conforms('start', await api.start({ email: 42, caller_id: '' }));
    conforms('start', await api.start({ email: 'a@b.co', pad: 'x'.repeat(20_000) }));
    const wrong = { ...alice, verification_code: '000000' };
    conforms('verify', await api.verify(wrong));
    conforms('verify', await api.verify({ email: 'alice@example.com' }));
    conforms('verify', await api.verify({ email: 'carol@example.com', verification_code: '1' }));
    const code = (await target.emulator.latestCode('alice@example.com'))?.code as string;
    conforms('verify', await api.verify({ ...alice, verification_code: code }));
    conforms('verify', await api.verify({ ...alice, verification_code: code }));
    // Expired, then killed by wrong codes.
    await api.start({ email: 'bob@example.com' });
    target.clock.advance(11 * 60_000);
    conforms('verify', await api.verify({ email: 'bob@example.com', verification_code: '1' }));
    await api.start({ email: 'carol@example.com' });
    for (let attempt = 0; attempt < 6; attempt++) {
      target.clock.advance(1_000);
      conforms('verify', await api.verify({ email: 'carol@example.com', verification_code: '1' }));
    }
  });

  it('conform when buckets run out, with and without caller_id', async () => {
    for (let index = 0; index < 7; index++)
      conforms('exists', await api.exists(`${ALICE}&caller_id=203.0.113.9`));
    for (let index = 0; index < 22; index++)
      conforms('start', await api.start({ email: 'bob@example.com' }));
    const limited = await api.verify({ email: 'bob@example.com', verification_code: '1' });
    expect(limited.status).toBe(429);
    conforms('verify', limited);
  });

  it('conform when the request is too long to be repeated whole, with its text clipped', async () => {
    const merchant = 'm'.repeat(3000);
    const unknown = conforms(
      'start',
      await api.start({ email: 'alice@example.com' }, { merchant }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.merchant_id).toBe(`${'m'.repeat(1023)}…`);
    expect((unknown.body.detail as string).length).toBe(1024);
    for (let index = 0; index < 20; index++) await api.exists(ALICE);
    const limited = conforms(
      'start',
      await api.start({ email: 'alice@example.com' }, { merchant }),
    );
    expect(limited.status).toBe(429);
    expect(limited.body.instance).toBe(`/v1/merchants/${'m'.repeat(1024 - 15)}…`);
  });

  it('conform under every header style and Retry-After mode', async () => {
    const styles = ['draft-10', 'draft-7', 'draft-6', 'x-ratelimit', 'none'] as const;
    const modes = ['exact', 'absent', 'fixed:7'] as const;
    for (const [index, headers] of styles.entries()) {
      await configure({ behavior: { headers, retryAfter: modes[index % modes.length] } });
      const v = validator();
      const caller = `caller_id=style-${headers}`;
      for (let attempt = 0; attempt < 6; attempt++)
        conforms('exists', await api.exists(`${ALICE}&${caller}`), v);
      conforms('exists', await api.exists(`email=x&${caller}-2`), v);
      conforms('exists', await api.exists(ALICE, { token: null }), v);
    }
  });

  it('conform in shadow mode, under chaos and with scripted faults', async () => {
    await configure({ behavior: { shadow: true } });
    for (let index = 0; index < 7; index++)
      conforms('exists', await api.exists(`${ALICE}&caller_id=shadowed`));
    await configure({ behavior: { shadow: false, chaos: 1 } });
    conforms('start', await api.start({ email: 'alice@example.com' }));
    await configure({ behavior: { chaos: 0 } });
    target.emulator.failNext({ status: 500 });
    target.emulator.failNext({ status: 503, retryAfter: 2 });
    target.emulator.failNext({ status: 429, retryAfter: 3 });
    target.emulator.failNext({ status: 503 });
    conforms('exists', await api.exists(ALICE));
    conforms('start', await api.start({ email: 'alice@example.com' }));
    conforms('verify', await api.verify({ email: 'alice@example.com', verification_code: '1' }));
    conforms('exists', await api.exists(`${ALICE}&caller_id=faulty`));
  });

  it('conform for fuzzed requests to the three operations', async () => {
    const v = validator();
    const text = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom(
        '',
        'alice@example.com',
        'bob@example.com',
        '+14155550101',
        '123456',
        'x'.repeat(300),
        '%zz',
      ),
    );
    const request = fc.record({
      operation: fc.constantFrom<Operation>('exists', 'start', 'verify'),
      merchant: fc.constantFrom(DEMO_MERCHANT, OTHER_MERCHANT, 'nope', DEMO_MERCHANT.toUpperCase()),
      query: fc.array(
        fc.tuple(fc.constantFrom('email', 'phone_number', 'caller_id', 'junk'), text),
        {
          maxLength: 4,
        },
      ),
      body: fc.oneof(
        fc
          .record(
            {
              email: fc.oneof(text, fc.integer(), fc.constant(null)),
              caller_id: fc.oneof(text, fc.integer()),
              verification_code: fc.oneof(text, fc.integer()),
            },
            { requiredKeys: [] },
          )
          .map((value) => JSON.stringify(value)),
        fc.json({ maxDepth: 2 }),
        fc.string({ maxLength: 40 }),
      ),
      token: fc.constantFrom<string | null | undefined>(
        undefined,
        null,
        OTHER_TOKEN,
        'unknown-token',
      ),
      type: fc.constantFrom('application/json', 'application/merge-patch+json', 'text/plain'),
      advanceMs: fc.integer({ min: 0, max: 2_000 }),
    });
    await fc.assert(
      fc.asyncProperty(request, async (generated) => {
        target.clock.advance(generated.advanceMs);
        const token = generated.token ?? undefined;
        const options =
          generated.token === null ? { token: null } : token === undefined ? {} : { token };
        if (generated.operation === 'exists') {
          const query = new URLSearchParams(generated.query).toString();
          conforms('exists', await api.exists(query, options), v);
        } else {
          const reply = await api[generated.operation](generated.body, {
            ...options,
            merchant: generated.merchant,
            headers: { 'content-type': generated.type },
          });
          conforms(generated.operation, reply, v);
        }
      }),
      { numRuns: 150, seed: 11 },
    );
  });
});
