import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../adapters/msw/msw-handlers.js';
import { createOpenApiDocument } from '../contract/openapi-document.js';
import { resolveConfig } from '../core/config/config.js';
import { createManualClock } from '../core/time/clock.js';
import { createSeededRandom } from '../core/time/random.js';
import { DEMO_CONFIG, DEMO_MERCHANT, DEMO_TOKEN } from '../demo-config.js';
import { createEmulator } from '../emulator.js';
import { STRICT } from '../../test/helpers/msw-options.js';
import type { ConformOptions } from './conform-options.js';
import { createConformSender } from './conform-sender.js';
import { CONFORM_PROBES } from './probe-catalog.js';
import { runConformSuite } from './run-conform-suite.js';

const BASE = 'http://uas.conform.test';
const server = setupServer();
beforeAll(() => server.listen(STRICT));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const OPTIONS: ConformOptions = {
  email: 'alice@example.com',
  merchantId: DEMO_MERCHANT,
  runId: 'unit',
  exhaust: true,
  devApi: true,
  style: 'draft-10',
  maxWaitMs: 30_000,
};
const contract = createOpenApiDocument(resolveConfig(DEMO_CONFIG));

/** The suite against `fetch`, its waits on a manual clock, within `maxRequests`. */
function suiteOf(fetch: typeof globalThis.fetch | undefined, maxRequests = 25) {
  const clock = createManualClock(Date.UTC(2026, 0, 1));
  const sender = createConformSender({
    baseUrl: BASE,
    token: DEMO_TOKEN,
    adminToken: undefined,
    maxRequests,
    timeoutMs: 5_000,
    maxResponseBytes: 1024 * 1024,
    ...(fetch === undefined ? {} : { fetch }),
  });
  const time = { now: () => clock.now(), sleep: async (ms: number) => clock.advance(ms) };
  return { clock, run: () => runConformSuite({ options: OPTIONS, sender, clock: time, contract }) };
}

describe('runConformSuite', () => {
  it('passes every probe against the emulator, in the catalog order, waiting on its clock', async () => {
    const { clock, run } = suiteOf(undefined);
    const emulator = createEmulator({ config: DEMO_CONFIG, clock, random: createSeededRandom(1) });
    server.use(...createHandlers({ emulator, baseUrl: BASE }));
    const started = clock.now();
    const report = await run();
    // The one wait: the Retry-After of the 429 (1 s at the demo limits), on the manual clock.
    expect(clock.now() - started).toBe(1_000);
    expect(report.checks.map((check) => [check.id, check.status, check.differences])).toEqual(
      CONFORM_PROBES.map((probe) => [probe.id, 'pass', []]),
    );
    expect(report.requests).toBe(report.checks.reduce((sum, check) => sum + check.requests, 0));
    expect(report).toMatchObject({ unreachable: undefined, adminToken: undefined });
  });

  it('skips every probe once the first request gets no answer, saying why', async () => {
    const refused: typeof fetch = () =>
      Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }));
    const report = await suiteOf(refused).run();
    expect(report.unreachable).toBe(`cannot reach ${BASE}: ECONNREFUSED`);
    expect(report.requests).toBe(1);
    expect(new Set(report.checks.map((check) => check.reason))).toEqual(
      new Set(['the target cannot be reached']),
    );
  });

  it('names where a redirect points instead of quoting its body, and does not follow it', async () => {
    const redirect: typeof fetch = (input) =>
      Promise.resolve(
        new Response('<html>Moved</html>', {
          status: 301,
          headers: {
            location: String(input).replace('http:', 'https:'),
            'content-type': 'text/html',
          },
        }),
      );
    const report = await suiteOf(redirect).run();
    const auth = report.checks.find((check) => check.id === 'auth.required');
    expect(auth?.differences).toHaveLength(1);
    expect(auth?.differences[0]).toMatch(
      /^expected 401, got 301 to https:\/\/uas\.conform\.test\/v1\/users\/exists\?\S+$/,
    );
  });

  it('skips a probe its budget cannot pay for, and sends nothing more than the budget', async () => {
    const { clock, run } = suiteOf(undefined, 3);
    const emulator = createEmulator({ config: DEMO_CONFIG, clock, random: createSeededRandom(1) });
    server.use(...createHandlers({ emulator, baseUrl: BASE }));
    const report = await run();
    expect(report.requests).toBe(3);
    expect(report.checks[3]).toMatchObject({
      id: 'exists.known-user',
      status: 'skip',
      reason: 'needs 1 request; 0 of the budget left (raise --max-requests)',
    });
  });
});
