import ipaddr from 'ipaddr.js';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type EmulatorHttpServer } from '../../src/adapters/http/http-server.js';
import { internalRangeOf } from '../../src/check/internal-address.js';
import { DEMO_MERCHANT, DEMO_TOKEN } from '../../src/demo-config.js';
import { createEmulator } from '../../src/emulator.js';
import { createLiveDevApi, USER_BATCH } from '../../src/simulate/live-dev-api.js';
import { NOT_AN_EMULATOR, runLive } from '../../src/simulate/live-run.js';
import { isLiveRunError, type LiveRunError } from '../../src/simulate/live-run-error.js';
import { reportRows } from '../../src/simulate/report-format.js';
import { resolveScenario, type Scenario } from '../../src/simulate/scenario.js';

let running: EmulatorHttpServer | undefined;
afterEach(async () => {
  await running?.close(100);
  running = undefined;
});

interface Sent {
  method: string;
  path: string;
  contentType: string | null;
  body: string | undefined;
}

/** A fetch that records what it sends, then sends it (or answers with `fake` when it returns one). */
function recording(fake?: (sent: Sent) => Response | undefined): {
  fetch: typeof fetch;
  sent: Sent[];
} {
  const sent: Sent[] = [];
  const spy: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const entry: Sent = {
      method: init?.method ?? 'GET',
      path: url.pathname + url.search,
      contentType: new Headers(init?.headers).get('content-type'),
      body: typeof init?.body === 'string' ? init.body : undefined,
    };
    sent.push(entry);
    return fake?.(entry) ?? fetch(input, init);
  };
  return { fetch: spy, sent };
}

/** A live run of `scenario` against a server that is not there but for what `fetch` answers. */
const runAgainst = (fetch: typeof globalThis.fetch, scenario: Scenario) =>
  runLive(scenario, {
    target: 'http://127.0.0.1:9',
    token: DEMO_TOKEN,
    merchantId: DEMO_MERCHANT,
    concurrency: 8,
    fetch,
  });

const caught = async (promise: Promise<unknown>): Promise<LiveRunError> => {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  if (!isLiveRunError(error)) throw new Error(`expected a LiveRunError, got ${String(error)}`);
  return error;
};

describe('the dev API client of live runs', () => {
  it('registers users in batches of 5,000, each sent as JSON, so that any number fits', async () => {
    running = await listen(createEmulator(), 0, '127.0.0.1');
    const { fetch: spy, sent } = recording();
    const devApi = createLiveDevApi({ base: running.url, fetch: spy });
    const emails = Array.from({ length: 12_050 }, (_, index) => `batch-${index}@example.com`);
    await devApi.addUsers(emails);
    expect(sent.map((entry) => `${entry.method} ${entry.path} ${entry.contentType}`)).toEqual(
      Array(3).fill('POST /__uas/users application/json'),
    );
    const sizes = sent.map((entry) => JSON.parse(entry.body as string).users.length);
    expect(sizes).toEqual([USER_BATCH, USER_BATCH, 2050]);
    for (const email of [emails[0], emails[5000], emails.at(-1)]) {
      const answer = await fetch(
        `${running.url}/v1/users/exists?email=${encodeURIComponent(email as string)}`,
        { headers: { authorization: `Bearer ${DEMO_TOKEN}` } },
      );
      expect(await answer.json()).toMatchObject({ exists: true });
    }
  });

  it('sends bodies as application/json, which the dev API requires', async () => {
    running = await listen(createEmulator(), 0, '127.0.0.1');
    const { fetch: spy, sent } = recording();
    const devApi = createLiveDevApi({ base: running.url, fetch: spy });
    await devApi.configure({ limits: { caller: { burst: 7, rate: '1/s' } } });
    await devApi.resetBuckets();
    expect(sent.map((entry) => [entry.method, entry.contentType])).toEqual([
      ['PATCH', 'application/json'],
      ['DELETE', null],
    ]);
  });

  it('turns a refusal into one line naming the call, the status and the detail', async () => {
    const answers: Record<string, Response> = {
      '/__uas/users': new Response('Internal error\n    at addUsers (dev-api.js:1:1)\n', {
        status: 500,
      }),
      '/__uas/config': Response.json(
        { type: 'x', title: 'Unsupported', status: 415, detail: 'send JSON, please' },
        { status: 415, headers: { 'content-type': 'application/problem+json' } },
      ),
    };
    const { fetch: spy } = recording((sent) => answers[sent.path]?.clone());
    const devApi = createLiveDevApi({ base: 'http://127.0.0.1:9', fetch: spy });
    const users = await caught(devApi.addUsers(['a@example.com']));
    expect(users.message).toBe(
      "the target's dev API refused POST /__uas/users: 500 Internal error at addUsers (dev-api.js:1:1)",
    );
    expect(users.reason).toBe('refused');
    const config = await caught(devApi.configure({}));
    expect(config.message).toBe(
      "the target's dev API refused PATCH /__uas/config: 415 send JSON, please",
    );
  });

  it('turns a network failure into one line with the reason', async () => {
    const { fetch: spy } = recording(() => {
      throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET', message: 'reset' } });
    });
    const devApi = createLiveDevApi({ base: 'http://127.0.0.1:9', fetch: spy });
    const error = await caught(devApi.resetBuckets());
    expect(error.message).toBe(
      "the target's dev API did not answer DELETE /__uas/buckets: ECONNRESET: reset",
    );
    expect(error.reason).toBe('network');
  });

  it('asks for the admin token instead of taking a guarded emulator for another server', async () => {
    running = await listen(
      createEmulator({ devApi: { enabled: true, adminToken: 'sesame' } }),
      0,
      '127.0.0.1',
    );
    const without = await caught(createLiveDevApi({ base: running.url }).isEmulator());
    expect(without.message).toBe(
      "cannot use the target's dev API (GET /__uas/health): the dev API needs an admin token: pass --admin-token or set UAS_ADMIN_TOKEN",
    );
    expect(without.reason).toBe('admin-token');
    const wrong = await caught(
      createLiveDevApi({ base: running.url, adminToken: 'wrong' }).isEmulator(),
    );
    expect(wrong.message).toBe(
      "cannot use the target's dev API (GET /__uas/health): the dev API refused the admin token: check --admin-token or UAS_ADMIN_TOKEN",
    );
    const devApi = createLiveDevApi({ base: running.url, adminToken: 'sesame' });
    expect(await devApi.isEmulator()).toBe(true);
    await devApi.addUsers(['guarded@example.com']);
  });

  it('takes a server without a dev API for another server, and no code for undefined', async () => {
    const { fetch: spy } = recording((sent) =>
      sent.path.startsWith('/__uas/codes/')
        ? Response.json(
            { type: 'urn:uas:problem:code-not-found', detail: 'no code' },
            { status: 404 },
          )
        : new Response('not here', { status: 404 }),
    );
    const devApi = createLiveDevApi({ base: 'http://127.0.0.1:9', fetch: spy });
    expect(await devApi.isEmulator()).toBe(false);
    expect(await devApi.latestCode('a@example.com', DEMO_MERCHANT)).toBeUndefined();
  });
});

describe('runLive', () => {
  it('stops with the dev API failure when a code cannot be read, instead of counting a failed sign-in', async () => {
    running = await listen(createEmulator(), 0, '127.0.0.1');
    const { fetch: spy } = recording((sent) =>
      sent.path.startsWith('/__uas/codes/')
        ? new Response('overloaded', { status: 503 })
        : undefined,
    );
    const scenario = resolveScenario({
      duration: '10s',
      shoppers: { count: 3, arrivalRate: '20/s', thinkTime: '10ms' },
      bot: { rate: '1/s' },
      modes: ['per-caller'],
    });
    const error = await caught(
      runLive(scenario, {
        target: running.url,
        token: DEMO_TOKEN,
        merchantId: DEMO_MERCHANT,
        concurrency: 8,
        fetch: spy,
      }),
    );
    expect(error.message).toMatch(
      /^the target's dev API refused GET \/__uas\/codes\/shopper-\d+\.per-caller%40example\.com\?merchant_id=[-0-9a-f]+: 503 overloaded$/,
    );
  });

  it('says sign-ins reached start, not that they completed, where codes cannot be read', async () => {
    // A server that is not uas: exists and start answer, the bot's probes are refused.
    const { fetch: spy } = recording((entry) => {
      if (entry.path.startsWith('/__uas/')) return new Response('no such thing', { status: 404 });
      if (entry.path.includes('probe-'))
        return new Response('{}', { status: 429, headers: { 'retry-after': '60' } });
      const body = entry.path.includes('/exists')
        ? { exists: true, token_count: 1 }
        : { sent: true };
      return Response.json(body);
    });
    const scenario = resolveScenario({
      duration: '300ms',
      shoppers: { count: 1, arrivalRate: '100/s', thinkTime: '1ms' },
      bot: { rate: '10/s' },
      modes: ['per-caller'],
    });
    const report = await runAgainst(spy, scenario);
    expect(report.scenario.flows_end_at).toBe('start');
    const [mode] = report.modes;
    expect(mode?.verdict).not.toContain('completed');
    if (mode?.shoppers.completed === 1)
      expect(mode.verdict).toMatch(/^protected: 1 of the 1 sign-in reached start \(100\.0%\)/);
    expect(reportRows(report).body.map(([label]) => label)).toContain(
      'sign-ins that reached start',
    );
  });

  it('says in the report when the target is not a uas emulator', async () => {
    const { fetch: spy, sent } = recording(() => new Response('no such thing', { status: 404 }));
    const scenario = resolveScenario({
      duration: '300ms',
      shoppers: { count: 1, arrivalRate: '100/s' },
      bot: { rate: '10/s' },
      modes: ['shared'],
    });
    const report = await runAgainst(spy, scenario);
    expect(report.warnings).toEqual([NOT_AN_EMULATOR]);
    expect(sent.filter((entry) => entry.path.startsWith('/__uas/'))).toEqual([
      expect.objectContaining({ method: 'GET', path: '/__uas/health' }),
    ]);
  });

  it('gives each mode e-mails of its own, so that no request of one mode looks like a resend of another', async () => {
    running = await listen(createEmulator(), 0, '127.0.0.1');
    const { fetch: spy, sent } = recording();
    const scenario = resolveScenario({
      duration: '1s',
      shoppers: { count: 10, arrivalRate: '1000/s', thinkTime: '1ms' },
      bot: { rate: '10/s' },
      modes: ['per-caller', 'rotating', 'static'],
    });
    const report = await runLive(scenario, {
      target: running.url,
      token: DEMO_TOKEN,
      merchantId: DEMO_MERCHANT,
      concurrency: 8,
      fetch: spy,
    });
    const emailOf = (entry: Sent) =>
      entry.body === undefined
        ? new URL(`http://x${entry.path}`).searchParams.get('email')
        : (JSON.parse(entry.body) as { email?: string }).email;
    // The buckets are reset before each mode: what is sent between two resets is one mode's.
    const modes: Array<Set<string>> = [];
    for (const entry of sent) {
      if (entry.method === 'DELETE' && entry.path === '/__uas/buckets') modes.push(new Set());
      else if (entry.path.startsWith('/v1/')) modes.at(-1)?.add(String(emailOf(entry)));
    }
    expect(modes).toHaveLength(3);
    for (const [index, emails] of modes.entries()) {
      expect(emails.size).toBeGreaterThan(0);
      for (const other of modes.slice(index + 1))
        expect([...emails].filter((email) => other.has(email))).toEqual([]);
    }
    // The shoppers of each mode are users: per caller, every sign-in that ended completed.
    const perCaller = report.modes[0]?.shoppers;
    expect(perCaller?.completed).toBeGreaterThan(0);
    expect(perCaller?.failed).toBe(0);
  });

  it('gives live shoppers documentation addresses, which uas check does not take for internal', async () => {
    const { fetch: spy, sent } = recording((entry) => {
      if (entry.path.startsWith('/__uas/')) return new Response('no such thing', { status: 404 });
      return Response.json(entry.path.includes('/exists') ? { exists: true, token_count: 1 } : {});
    });
    const scenario = resolveScenario({
      duration: '1s',
      shoppers: { count: 20, arrivalRate: '1000/s', thinkTime: '1ms' },
      bot: { rate: '10/s' },
      modes: ['per-caller'],
    });
    const report = await runAgainst(spy, scenario);
    const callerOf = (entry: Sent) =>
      entry.body === undefined
        ? new URL(`http://x${entry.path}`).searchParams.get('caller_id')
        : (JSON.parse(entry.body) as { caller_id?: string }).caller_id;
    const shoppers = new Set(
      sent
        .filter((entry) => entry.path.startsWith('/v1/') && !entry.path.includes('probe-'))
        .map(callerOf),
    );
    const bot = new Set(sent.filter((entry) => entry.path.includes('probe-')).map(callerOf));
    expect(bot).toEqual(new Set(['203.0.113.66']));
    expect(shoppers.size).toBe(report.modes[0]?.shoppers.arrived);
    expect(shoppers.size).toBeGreaterThan(0);
    const documentation = [
      '192.0.2.0/24',
      '198.51.100.0/24',
      '203.0.113.0/24',
      '2001:db8::/32',
    ].map((cidr) => ipaddr.parseCIDR(cidr));
    for (const caller of shoppers) {
      const address = ipaddr.parse(caller as string);
      expect(
        documentation.some(
          ([network, bits]) => network.kind() === address.kind() && address.match(network, bits),
        ),
        `${caller}`,
      ).toBe(true);
      expect(internalRangeOf(caller as string)).toBeUndefined();
      expect(bot.has(caller as string)).toBe(false);
    }
  });
});
