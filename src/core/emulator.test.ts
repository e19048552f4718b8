import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { DEMO_CONFIG, DEMO_TOKEN } from '../demo-config.js';
import { createManualClock } from './time/clock.js';
import { createCoreEmulator } from './create-core-emulator.js';
import type { EmulatorRequest } from './service/exchange.js';
import { createSeededRandom } from './time/random.js';
import type { EmulatorEvent } from './records/records.js';

const exists = (callerId?: string, token = DEMO_TOKEN): EmulatorRequest => ({
  method: 'GET',
  url: `/v1/users/exists?email=alice%40example.com${callerId === undefined ? '' : `&caller_id=${callerId}`}`,
  headers: { authorization: `Bearer ${token}` },
});

const make = (overrides: Record<string, unknown> = {}, seed = 1) => {
  const clock = createManualClock(0);
  const emulator = createCoreEmulator({
    config: { ...DEMO_CONFIG, ...overrides },
    clock,
    random: createSeededRandom(seed),
  });
  return { clock, emulator };
};

describe('createCoreEmulator', () => {
  it('refuses an empty admin token, which every request would match', () => {
    for (const adminToken of ['', 'two words'])
      expect(() =>
        createCoreEmulator({
          config: DEMO_CONFIG,
          clock: createManualClock(0),
          random: createSeededRandom(1),
          devApi: { adminToken },
        }),
      ).toThrow(/devApi\.adminToken/);
  });

  it('refuses a version health could not report as written: too long, or with spaces', () => {
    for (const version of ['1'.repeat(65), '1.0 beta', ''])
      expect(() =>
        createCoreEmulator({
          config: DEMO_CONFIG,
          clock: createManualClock(0),
          random: createSeededRandom(1),
          version,
        }),
      ).toThrow(/version: expected 1 to 64 printable ASCII characters/);
  });

  it('writes the exists answer as JSON.stringify writes its body', () => {
    const { emulator } = make();
    for (const email of ['alice%40example.com', 'nobody%40example.com']) {
      const response = emulator.handle({ ...exists(), url: `/v1/users/exists?email=${email}` });
      expect(response.status).toBe(200);
      expect(response.text).toBe(JSON.stringify(response.body));
    }
  });

  it('records a field named __proto__ as a field, in the query and in a body', () => {
    const { emulator } = make();
    emulator.handle(exists());
    emulator.handle({ ...exists(), url: `${exists().url}&__proto__=1` });
    emulator.handle({
      method: 'POST',
      url: '/v1/merchants/6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01/users/passwordless/start',
      headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
      body: '{"email":"alice@example.com","__proto__":{"x":1}}',
    });
    const [plain, withProto, started] = emulator.requests();
    expect(Object.hasOwn(withProto?.fields ?? {}, '__proto__')).toBe(true);
    expect(withProto?.fields?.['__proto__']).toBe('1');
    expect(withProto?.fingerprint).not.toBe(plain?.fingerprint);
    expect(started?.fields?.['__proto__']).toBe('{"x":1}');
  });

  it('does not hold a large query, parsed, in the journal: its record is completed at once', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const { emulator } = make({
      limits: { ...DEMO_CONFIG.limits, client: { burst: 1_000_000, rate: '1/h' } },
    });
    // 2,600 parameters, 26 KB: parsed and kept whole, each record held about 180 KB.
    const many = Array.from({ length: 2_600 }, (_, index) => `p${index}=${index}`).join('&');
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let index = 0; index < 300; index++)
      emulator.handle({ ...exists(), url: `${exists().url}&${many}&n=${index}` });
    gc();
    const held = process.memoryUsage().heapUsed - before;
    // The query text itself (26 KB a record) may stay; its 2,600 parsed fields may not.
    expect(held).toBeLessThan(300 * 60_000);
    const [first, second] = emulator.requests();
    expect(Object.keys(first?.fields ?? {})).toHaveLength(32);
    expect(first?.fingerprint).not.toBe(second?.fingerprint);
  });

  it('shares caller buckets across clients when callerScope is global', () => {
    const { emulator } = make({
      limits: { ...DEMO_CONFIG.limits, callerScope: 'global', caller: { burst: 1, rate: '1/m' } },
    });
    expect(emulator.handle(exists('ip')).headers['uas-bucket']).toBe('caller:*:ip');
    expect(emulator.handle(exists('ip', 'uas-other-token')).status).toBe(429);
  });

  it('charges invalid requests when countInvalid is set', () => {
    const { emulator } = make({ limits: { ...DEMO_CONFIG.limits, countInvalid: true } });
    const invalid = emulator.handle({
      method: 'GET',
      url: '/v1/users/exists?caller_id=c',
      headers: { authorization: `Bearer ${DEMO_TOKEN}` },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.ratelimit).toBe('"caller";r=4;t=1');
  });

  it('charges the configured cost per operation', () => {
    const { emulator } = make({ limits: { ...DEMO_CONFIG.limits, cost: { exists: 2 } } });
    expect(emulator.handle(exists('c')).headers.ratelimit).toBe('"caller";r=3;t=1');
  });

  it('asks the transport to wait the configured latency, within its range', () => {
    const { emulator } = make({ behavior: { latency: '100ms-200ms' } });
    const delays = Array.from({ length: 20 }, () => emulator.handle(exists()).delayMs);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...delays)).toBeLessThanOrEqual(200);
    expect(new Set(delays).size).toBeGreaterThan(1);
  });

  it('issues the same codes for the same seed, and the fixed code when asked', () => {
    const codes = (seed: number) => {
      const { emulator } = make({}, seed);
      emulator.handle({
        method: 'POST',
        url: `/v1/merchants/${DEMO_CONFIG.clients[0]?.merchants[0]}/users/passwordless/start`,
        headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
        body: '{"email":"bob@example.com"}',
      });
      return emulator.latestCode('bob@example.com')?.code;
    };
    expect(codes(5)).toBe(codes(5));
    const { emulator } = make({ otp: { mode: 'fixed:123456' } });
    emulator.handle({
      method: 'POST',
      url: `/v1/merchants/${DEMO_CONFIG.clients[0]?.merchants[0]}/users/passwordless/start`,
      headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
      body: '{"email":"bob@example.com"}',
    });
    expect(emulator.latestCode('bob@example.com')?.code).toBe('123456');
  });

  it('keeps bucket memory bounded by maxBuckets', () => {
    const { emulator } = make({ limits: { ...DEMO_CONFIG.limits, maxBuckets: 100 } });
    for (let index = 0; index < 1000; index++) emulator.handle(exists(`flood-${index}`));
    expect(emulator.listBuckets({ limit: 1000 }).total).toBe(100);
    expect(emulator.metrics()).toContain('uas_bucket_evictions_total 900');
  });

  it('drops refilled buckets once there are more than keepFullBuckets', () => {
    const { emulator, clock } = make({ limits: { ...DEMO_CONFIG.limits, keepFullBuckets: 10 } });
    for (let index = 0; index < 10; index++) emulator.handle(exists(`old-${index}`));
    clock.advance(10_000);
    for (let index = 0; index < 10; index++) emulator.handle(exists(`new-${index}`));
    const keys = emulator.listBuckets({ limit: 100 }).buckets.map((bucket) => bucket.key);
    expect(keys.filter((key) => key.includes('old-')).length).toBeLessThan(10);
    expect(keys.filter((key) => key.includes('new-'))).toHaveLength(10);
  });

  it('keeps full buckets, with their counters, below keepFullBuckets', () => {
    const { emulator, clock } = make();
    emulator.handle(exists('kept'));
    clock.advance(60_000);
    emulator.handle(exists('other'));
    expect(emulator.getBucket('caller:demo:kept')).toMatchObject({ allowed: 1, remaining: 5 });
  });

  it('announces requests, codes, resets and config changes to listeners', () => {
    const { emulator } = make();
    const events: EmulatorEvent[] = [];
    const stop = emulator.subscribe((event) => events.push(event));
    emulator.handle(exists('c'));
    emulator.resetBuckets();
    emulator.configure({ behavior: { shadow: true } });
    stop();
    emulator.handle(exists('c'));
    expect(events.map((event) => event.type)).toEqual(['request', 'reset', 'config']);
  });

  it('gives a deferring listener the record as it stands, which completeRecord completes in place', () => {
    const { emulator } = make();
    const deferred: EmulatorEvent[] = [];
    const whole: EmulatorEvent[] = [];
    const stopDeferred = emulator.subscribe((event) => deferred.push(event), {
      records: 'deferred',
    });
    const request = { ...exists('c'), url: `${exists('c').url}&note=${DEMO_TOKEN}` };
    emulator.handle(request);
    const [heard] = deferred;
    if (heard?.type !== 'request') throw new Error('no request event');
    // Not worked out yet: no fields, no fingerprint.
    expect(heard.request.fingerprint).toBe('');
    expect(heard.request.fields).toBeUndefined();
    expect(emulator.completeRecord(heard.request)).toBe(heard.request);
    expect(heard.request.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(heard.request.fields).toEqual({
      email: 'alice@example.com',
      caller_id: 'c',
      note: `…(${DEMO_TOKEN.length} chars)`,
    });

    // A listener of whole records makes every listener hear them whole.
    const stopWhole = emulator.subscribe((event) => whole.push(event));
    emulator.handle(request);
    stopWhole();
    stopDeferred();
    for (const events of [deferred, whole]) {
      const last = events.at(-1);
      expect(last?.type === 'request' && last.request.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    }
  });

  it('in shadow mode, marks and counts an invalid request the empty bucket would have refused first', () => {
    const invalid = (callerId: string): EmulatorRequest => ({
      ...exists(callerId),
      url: `/v1/users/exists?email=not-an-email&caller_id=${callerId}`,
    });
    for (const shadow of [false, true]) {
      const { emulator } = make({ behavior: { shadow } });
      for (let index = 0; index < 5; index++)
        expect(emulator.handle(exists('s1')).status).toBe(200);
      const response = emulator.handle(invalid('s1'));
      const bucket = emulator.getBucket('caller:demo:s1');
      if (shadow) {
        // Refused for its input, as the answer says; marked and counted as the 429 it would be.
        expect(response.status).toBe(400);
        expect(response.headers['uas-shadow-limited']).toBe('true');
        expect(bucket).toMatchObject({ allowed: 5, rejected: 0, shadow_rejected: 1 });
      } else {
        expect(response.status).toBe(429);
        expect(bucket).toMatchObject({ allowed: 5, rejected: 1, shadow_rejected: 0 });
      }
      // With tokens left, an invalid request is refused unmarked in both modes.
      const fresh = emulator.handle(invalid('s2'));
      expect(fresh.status).toBe(400);
      expect(fresh.headers['uas-shadow-limited']).toBeUndefined();
    }
  });

  it('never throws, whatever the request', () => {
    const { emulator } = make();
    const weird: EmulatorRequest[] = [
      { method: 'GET', url: '/v1/merchants/%E0%A4%A/users/passwordless/start', headers: {} },
      {
        method: 'POST',
        url: '/v1/merchants/x/users/passwordless/verify',
        headers: { authorization: ['Bearer a', 'Bearer b'] },
        body: '\u0000',
      },
      { method: 'DELETE', url: '/__uas/buckets/%zz', headers: {} },
      {
        method: 'GET',
        url: '/v1/users/exists?email=%',
        headers: { authorization: `Bearer ${DEMO_TOKEN}` },
      },
    ];
    for (const request of weird) {
      const response = emulator.handle(request);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
  });
});

describe('Retry-After', () => {
  it('is never earlier than the moment a token is back, whatever the limits', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 50 }),
        fc.constantFrom('s', 'm', '7s', '250ms', 'h'),
        fc.integer({ min: 0, max: 5000 }),
        (burst, tokens, window, offsetMs) => {
          const clock = createManualClock(offsetMs);
          const config = {
            ...DEMO_CONFIG,
            limits: { ...DEMO_CONFIG.limits, caller: { burst, rate: `${tokens}/${window}` } },
          };
          const emulator = createCoreEmulator({ config, clock, random: createSeededRandom(1) });
          let limited = emulator.handle(exists('p'));
          for (let guard = 0; limited.status !== 429 && guard < 100; guard++)
            limited = emulator.handle(exists('p'));
          expect(limited.status).toBe(429);
          const seconds = Number(limited.headers['retry-after']);
          expect(seconds).toBeGreaterThanOrEqual(1);
          clock.advance(seconds * 1000);
          expect(emulator.handle(exists('p')).status).toBe(200);
        },
      ),
      { numRuns: 300, seed: 11 },
    );
  });

  it("counts from a bucket's own time after a manual clock is set back before it", () => {
    const { clock, emulator } = make(); // caller buckets: 5 tokens, 1/s
    clock.set(300_000);
    for (let call = 0; call < 5; call++) emulator.handle(exists('back'));
    clock.set(0); // the bucket stays at 300 s: nothing refills before then
    const limited = emulator.handle(exists('back'));
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('301');
    expect(limited.headers['ratelimit']).toBe('"caller";r=0;t=301');
    const [bucket] = emulator.listBuckets({ limit: 10 }).buckets;
    expect(bucket).toMatchObject({ next_token_ms: 301_000, full_in_ms: 305_000 });
    clock.advance(300_999);
    expect(emulator.handle(exists('back')).status).toBe(429);
    clock.advance(1);
    expect(emulator.handle(exists('back')).status).toBe(200);
  });
});
