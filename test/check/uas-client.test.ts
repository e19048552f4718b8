import fc from 'fast-check';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/adapters/msw/msw-handlers.js';
import { checkIntegration } from '../../src/check/check-integration.js';
import type { CheckReport } from '../../src/check/check-report.js';
import { createClient } from '../../src/client/client.js';
import type { RetryOptions } from '../../src/client/retry-policy.js';
import { createSeededRandom } from '../../src/core/time/random.js';
import { DEMO_CONFIG, DEMO_MERCHANT, DEMO_TOKEN } from '../../src/demo-config.js';
import { createEmulator } from '../../src/emulator.js';
import { createVirtualTime } from '../helpers/virtual-time.js';
import { STRICT } from '../helpers/msw-options.js';

const BASE = 'http://uas.check.test';
const server = setupServer();

beforeAll(() => server.listen(STRICT));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** A run of shoppers signing in through uas's own client against the in-process emulator. */
interface Run {
  burst: number;
  rate: string;
  chaos: number;
  retryAfter: 'exact' | 'fixed:2';
  shoppers: number;
  /** Shoppers per public address: 2 puts pairs behind one NAT. */
  perAddress: 1 | 2;
  /** Milliseconds between shoppers' arrivals. */
  spacingMs: number;
  seed: number;
  /** The client's retry policy; its defaults are what is under test. */
  retry?: RetryOptions;
  /** Send an Idempotency-Key (one per distinct request) on every attempt. */
  idempotencyKeys?: boolean;
}

/** fetch with an Idempotency-Key made of the request: the same on every attempt of it. */
const withIdempotencyKey: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set(
    'idempotency-key',
    `${init?.method ?? 'GET'} ${String(input)} ${typeof init?.body === 'string' ? init.body : ''}`,
  );
  return globalThis.fetch(input, { ...init, headers });
};

/**
 * Each shopper, with their own e-mail and caller_id (their public address), checks whether they
 * exist, starts a sign-in, types a wrong code once in three, then the right code; between steps
 * they think for a while. A step that fails (the client gave up) ends their sign-in, as a
 * checkout page would show an error. Returns the journal, newest first as the emulator gives it.
 */
async function signIns(run: Run) {
  const time = createVirtualTime(Date.UTC(2026, 0, 1));
  const users = Array.from({ length: run.shoppers }, (_, index) => ({
    email: `shopper${index}@example.com`,
    token_count: 1,
  }));
  const emulator = createEmulator({
    config: {
      ...DEMO_CONFIG,
      users: [...DEMO_CONFIG.users, ...users],
      limits: { ...DEMO_CONFIG.limits, caller: { burst: run.burst, rate: run.rate } },
      behavior: { chaos: run.chaos, retryAfter: run.retryAfter },
      journal: { size: 10_000 },
    },
    clock: time.clock,
    random: createSeededRandom(run.seed),
  });
  server.use(...createHandlers({ emulator, baseUrl: BASE }));
  const think = createSeededRandom(run.seed + 1);
  const shopper = (index: number) => async () => {
    const client = createClient({
      baseUrl: BASE,
      token: DEMO_TOKEN,
      clock: time.clientClock,
      random: createSeededRandom(run.seed * 1000 + index),
      retry: run.retry,
      ...(run.idempotencyKeys === true ? { fetch: withIdempotencyKey } : {}),
    });
    const email = `shopper${index}@example.com`;
    const callerId = `203.0.113.${Math.floor(index / run.perAddress) + 1}`;
    const pause = () => time.clientClock.sleep(500 + think.next() * 3000);
    await time.clientClock.sleep(index * run.spacingMs);
    if (!(await client.exists({ email, callerId })).ok) return;
    await pause();
    if (!(await client.start({ merchantId: DEMO_MERCHANT, email, callerId })).ok) return;
    const code = emulator.latestCode(email, DEMO_MERCHANT)?.code ?? '000000';
    if (index % 3 === 0) {
      await pause();
      const wrong = code === '999999' ? '999998' : '999999';
      const answer = await client.verify({
        merchantId: DEMO_MERCHANT,
        email,
        code: wrong,
        callerId,
      });
      if (answer.status !== 422) return;
    }
    await pause();
    await client.verify({ merchantId: DEMO_MERCHANT, email, code, callerId });
  };
  await time.run(Array.from({ length: run.shoppers }, (_, index) => shopper(index)));
  return emulator.journal();
}

const errorsOf = (report: CheckReport) =>
  report.findings.filter((finding) => finding.severity === 'error');

describe("uas's own client under uas check", () => {
  it('never raises an error finding, whatever the limits, refusals and crowd', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          burst: fc.integer({ min: 1, max: 5 }),
          rate: fc.constantFrom('1/s', '2/s', '5/10s', '30/m'),
          chaos: fc.constantFrom(0, 0.1, 0.3, 0.6, 0.9),
          retryAfter: fc.constantFrom('exact' as const, 'fixed:2' as const),
          shoppers: fc.integer({ min: 1, max: 12 }),
          perAddress: fc.constantFrom(1 as const, 2 as const),
          spacingMs: fc.integer({ min: 0, max: 2000 }),
          seed: fc.integer({ min: 1, max: 1_000_000 }),
        }),
        async (run) => {
          const report = checkIntegration(await signIns(run));
          expect(errorsOf(report), JSON.stringify(run)).toEqual([]);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('raises no finding at all on busy runs where every retry rule is exercised', async () => {
    for (const seed of [1, 2, 3]) {
      const run: Run = {
        burst: 2,
        rate: '1/s',
        chaos: 0.5,
        retryAfter: 'exact',
        shoppers: 40,
        perAddress: 2,
        spacingMs: 150,
        seed,
      };
      const report = checkIntegration(await signIns(run));
      expect(report.findings, `seed ${seed}`).toEqual([]);
      const exercised = report.rules.filter((rule) => rule.status !== 'not-exercised');
      expect(exercised.map((rule) => rule.rule)).toEqual(
        expect.arrayContaining([
          'retry-before-retry-after',
          'retry-cap-exceeded',
          'retry-without-backoff',
          'retry-without-jitter',
          'ignores-429',
          'caller-id-shared',
          'caller-id-per-request',
        ]),
      );
    }
  });

  it('raises no finding for identical requests sent at the same time, which its Retry-Attempt tells from resends', async () => {
    const time = createVirtualTime(Date.UTC(2026, 0, 1));
    const emulator = createEmulator({
      config: {
        ...DEMO_CONFIG,
        limits: { ...DEMO_CONFIG.limits, caller: { burst: 5, rate: '1/s' } },
      },
      clock: time.clock,
      random: createSeededRandom(1),
    });
    server.use(...createHandlers({ emulator, baseUrl: BASE }));
    const client = createClient({
      baseUrl: BASE,
      token: DEMO_TOKEN,
      clock: time.clientClock,
      random: createSeededRandom(2),
    });
    // A page asks eight times at once whether one shopper exists: three are refused, and resent.
    const ask = () => client.exists({ email: 'alice@example.com', callerId: '203.0.113.7' });
    await time.run(Array.from({ length: 8 }, () => ask));
    const journal = emulator.journal();
    expect(journal.filter((record) => record.status === 429).length).toBeGreaterThan(0);
    expect(journal.map((record) => record.retry_attempt).sort()).toEqual(
      expect.arrayContaining(['0', '1']),
    );
    expect(checkIntegration(journal).findings).toEqual([]);
  });

  it('does see a client that retries more often, or without jitter (the harness can fail)', async () => {
    const busy: Run = {
      burst: 1,
      rate: '30/m',
      chaos: 0.6,
      retryAfter: 'exact',
      shoppers: 30,
      perAddress: 1,
      spacingMs: 100,
      seed: 4,
    };
    const stubborn = { ...busy, retry: { maxAttempts: 5 } };
    // Its requests carry no Idempotency-Key, but each resend comes just after Retry-After ran
    // out (its backoff is short): timed on Retry-After, no shopper's own, so uas check errs.
    const unmarked = checkIntegration(await signIns(stubborn));
    expect(errorsOf(unmarked).map((finding) => finding.rule)).toEqual(['retry-cap-exceeded']);
    // With one Idempotency-Key per request, the attempts past the cap are certain.
    const keyed = checkIntegration(await signIns({ ...stubborn, idempotencyKeys: true }));
    expect(errorsOf(keyed).map((finding) => finding.rule)).toEqual(['retry-cap-exceeded']);
    const fixed = checkIntegration(await signIns({ ...busy, retry: { baseDelayMs: 0 } }));
    expect(fixed.findings.map((finding) => finding.rule)).toEqual([
      'retry-without-backoff',
      'retry-without-jitter',
    ]);
  });
});
