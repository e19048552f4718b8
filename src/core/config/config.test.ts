import { describe, expect, it } from 'vitest';
import { DEMO_CONFIG } from '../../demo-config.js';
import { formatIssue, isConfigError } from './config-error.js';
import { applyConfigPatch, resolveConfig } from './config.js';
import { parseList } from 'structured-headers';
import { DEMO_MERCHANT, DEMO_TOKEN } from '../../demo-config.js';
import { createCoreEmulator } from '../create-core-emulator.js';
import { createManualClock } from '../time/clock.js';
import { createSeededRandom } from '../time/random.js';

const issuesOf = (input: unknown): string[] => {
  try {
    resolveConfig(input);
  } catch (error) {
    if (isConfigError(error)) return error.issues.map(formatIssue);
    throw error;
  }
  return [];
};

describe('resolveConfig', () => {
  it('fills every default and parses rates, durations and modes', () => {
    const config = resolveConfig({
      ...DEMO_CONFIG,
      behavior: { retryAfter: 'fixed:5', latency: '10ms-20ms' },
      otp: { mode: 'fixed:4242', ttl: '2m' },
    });
    expect(config.limits.client).toMatchObject({ burst: 20, rateText: '10/s', refillPerMs: 0.01 });
    expect(config.limits.cost).toEqual({ exists: 1, start: 1, verify: 1 });
    expect(config.behavior).toMatchObject({
      retryAfter: { mode: 'fixed', seconds: 5 },
      headers: 'draft-10',
      latency: { minMs: 10, maxMs: 20 },
    });
    expect(config.otp).toEqual({ fixedCode: '4242', length: 4, ttlMs: 120_000, maxAttempts: 5 });
    expect(config.maxBodyBytes).toBe(16_384);
  });

  it('names the bad field and what was expected', () => {
    expect(
      issuesOf({
        ...DEMO_CONFIG,
        limits: { ...DEMO_CONFIG.limits, client: { burst: 0, rate: 'fast' } },
      }),
    ).toEqual([
      'limits.client.burst: expected a whole number from 1 to 1000000000; got 0',
      'limits.client.rate: expected a rate such as "10/s", "100/m" or "5/10s"; got "fast"',
    ]);
    expect(
      issuesOf({ ...DEMO_CONFIG, clients: [{ id: 'a', token: 'abcdefgh', merchants: ['nope'] }] }),
    ).toEqual(['clients[0].merchants[0]: expected a merchant id in UUID form']);
    expect(issuesOf({ ...DEMO_CONFIG, limitz: {} })[0]).toContain('limitz');
  });

  it('tells a field of another type from a missing one, and says what came', () => {
    expect(
      issuesOf({
        ...DEMO_CONFIG,
        users: undefined,
        limits: { ...DEMO_CONFIG.limits, client: { burst: '1e23', rate: 5 } },
      }),
    ).toEqual([
      'users: missing (expected a list)',
      'limits.client.burst: expected a number; got "1e23"',
      'limits.client.rate: expected a string; got 5',
    ]);
    expect(issuesOf(null)).toEqual(['expected an object; got null']);
    expect(issuesOf({ ...DEMO_CONFIG, otp: { ttl: null } })).toEqual([
      'otp.ttl: expected a duration such as "500ms", "2s" or "10m"; got null',
    ]);
    expect(issuesOf({ ...DEMO_CONFIG, users: { alice: 1 } })).toEqual([
      'users: expected a list; got an object',
    ]);
    const long = 'x'.repeat(500);
    expect(issuesOf({ ...DEMO_CONFIG, clients: long })).toEqual([
      `clients: expected a list; got "${'x'.repeat(38)}…`,
    ]);
  });

  it('refuses duplicate tokens, merchants owned twice and costs above a burst', () => {
    const twice = {
      ...DEMO_CONFIG,
      clients: [DEMO_CONFIG.clients[0], { ...DEMO_CONFIG.clients[0], id: 'copy' }],
    };
    expect(issuesOf(twice)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('clients[1].token'),
        'clients[1].merchants[0]: 6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01 is already listed by client demo',
      ]),
    );
    expect(
      issuesOf({ ...DEMO_CONFIG, limits: { ...DEMO_CONFIG.limits, cost: { start: 6 } } }),
    ).toEqual([
      'limits.cost.start: 6 is more than limits.caller.burst (5); such a request could never pass',
    ]);
  });

  it('refuses two users with one phone number: exists by phone_number finds one user', () => {
    const users = [
      { email: 'ann@example.com', phone_number: '+14155550101' },
      { email: 'ben@example.com' },
      { email: 'cat@example.com', phone_number: '+14155550101' },
    ];
    expect(issuesOf({ ...DEMO_CONFIG, users })).toEqual([
      "users[2].phone_number: +14155550101 is ann@example.com's already",
    ]);
  });
});

describe('behavior.chaosRetryAfter', () => {
  it('is 1 to 5 s by default, and takes whole seconds or a range', () => {
    expect(resolveConfig(DEMO_CONFIG).behavior.chaosRetryAfter).toEqual({ min: 1, max: 5 });
    const of = (chaosRetryAfter: unknown) =>
      resolveConfig({ ...DEMO_CONFIG, behavior: { chaosRetryAfter } }).behavior.chaosRetryAfter;
    expect(of(2)).toEqual({ min: 2, max: 2 });
    expect(of('3')).toEqual({ min: 3, max: 3 });
    expect(of('0-86400')).toEqual({ min: 0, max: 86_400 });
  });

  it('refuses anything else, saying what was expected', () => {
    const issue = (chaosRetryAfter: unknown) =>
      issuesOf({ ...DEMO_CONFIG, behavior: { chaosRetryAfter } });
    expect(issue('5-1')).toEqual([
      'behavior.chaosRetryAfter: expected the shorter wait first, such as "1-5"; got "5-1"',
    ]);
    expect(issue('1-86401')).toEqual([
      'behavior.chaosRetryAfter: expected at most 86400 seconds; got "1-86401"',
    ]);
    for (const bad of [1.5, -1, '1s-5s', '1..5', '', null, [1, 5]])
      expect(issue(bad)[0]).toMatch(
        /^behavior\.chaosRetryAfter: expected whole seconds such as 2, or a range such as "1-5"; got /,
      );
  });

  it('changes live and is refused whole when bad', () => {
    const running = resolveConfig(DEMO_CONFIG).source;
    expect(
      applyConfigPatch(running, { behavior: { chaosRetryAfter: '10-20' } }).behavior
        .chaosRetryAfter,
    ).toEqual({ min: 10, max: 20 });
    expect(() => applyConfigPatch(running, { behavior: { chaosRetryAfter: 'soon' } })).toThrow(
      /chaosRetryAfter/,
    );
  });
});

describe('the bounds of numbers and durations', () => {
  it('refuses values that headers, timers or dates cannot carry', () => {
    const limits = (client: unknown) => ({
      ...DEMO_CONFIG,
      limits: { ...DEMO_CONFIG.limits, client },
    });
    expect(issuesOf(limits({ burst: 10 ** 16, rate: '1/s' }))).toEqual([
      'limits.client.burst: expected a whole number from 1 to 1000000000; got 10000000000000000',
    ]);
    expect(issuesOf(limits({ burst: 5, rate: '1/365d' }))[0]).toContain(
      'expected a window from 1ms to 24h',
    );
    expect(issuesOf({ ...DEMO_CONFIG, otp: { ttl: '300000y' } })).toEqual([
      'otp.ttl: expected at most 365d; got "300000y"',
    ]);
    expect(issuesOf({ ...DEMO_CONFIG, behavior: { latency: '30d' } })[0]).toContain('at most 1h');
    expect(issuesOf({ ...DEMO_CONFIG, behavior: { retryAfter: 'fixed:86401' } })[0]).toContain(
      '0 to 86400 seconds',
    );
  });

  it('refuses a rate written in more characters than a bucket view shows', () => {
    const rate = `10/${' '.repeat(70)}s`;
    const config = {
      ...DEMO_CONFIG,
      limits: { ...DEMO_CONFIG.limits, client: { burst: 5, rate } },
    };
    expect(issuesOf(config)[0]).toContain(
      'limits.client.rate: expected a rate of at most 64 characters, such as "10/s"',
    );
  });

  it('keeps every header within structured-field integers at the largest allowed values', () => {
    const emulator = createCoreEmulator({
      config: {
        ...DEMO_CONFIG,
        limits: {
          ...DEMO_CONFIG.limits,
          // The slowest refill allowed: 10^12 s from empty.
          client: { burst: 1_000_000_000, rate: '1/1000s' },
          caller: { burst: 1_000_000_000, rate: '1/1000s' },
          cost: { exists: 1_000_000_000 },
        },
        behavior: { retryAfter: 'fixed:86400' },
        otp: { ttl: '365d' },
      },
      clock: createManualClock(Date.UTC(2026, 0, 1)),
      random: createSeededRandom(1),
    });
    const ask = () =>
      emulator.handle({
        method: 'GET',
        url: '/v1/users/exists?email=alice%40example.com',
        headers: { authorization: `Bearer ${DEMO_TOKEN}` },
      });
    expect(ask().status).toBe(200);
    const refused = ask();
    expect(refused.status).toBe(429);
    for (const name of ['ratelimit', 'ratelimit-policy'])
      expect(() => parseList(refused.headers[name] ?? ''), name).not.toThrow();
    expect(refused.headers['retry-after']).toMatch(/^\d{1,15}$/);
    const code = emulator.handle({
      method: 'POST',
      url: `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`,
      headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.com', caller_id: 'a' }),
    });
    expect(code.status).toBe(200);
    expect(emulator.latestCode('alice@example.com')?.expires_at).toBe('2027-01-01T00:00:00.000Z');
  });
});

describe('applyConfigPatch', () => {
  it('merges a partial change and keeps the rest', () => {
    const base = resolveConfig(DEMO_CONFIG);
    const next = applyConfigPatch(base.source, {
      limits: { caller: { rate: '2/s' } },
      behavior: { shadow: true },
    });
    expect(next.limits.caller).toMatchObject({ burst: 5, rateText: '2/s' });
    expect(next.limits.client.burst).toBe(20);
    expect(next.behavior.shadow).toBe(true);
  });

  it('says what a change of another shape is', () => {
    const base = resolveConfig(DEMO_CONFIG);
    for (const [patch, said] of [
      [null, 'expected an object; got null'],
      [[], 'expected an object; got a list'],
    ] as const)
      try {
        applyConfigPatch(base.source, patch);
        expect.unreachable();
      } catch (error) {
        expect(isConfigError(error) && error.issues.map(formatIssue)).toEqual([said]);
      }
  });

  it('refuses fields that cannot change live', () => {
    const base = resolveConfig(DEMO_CONFIG);
    expect(() => applyConfigPatch(base.source, { users: [] })).toThrow(/users/);
  });
});

describe('config errors', () => {
  it('says back a Redis URL given where the store object belongs without its password', () => {
    const said = issuesOf({ ...DEMO_CONFIG, store: 'redis://:hunter2@10.0.0.5:6379/0' });
    expect(said).toEqual(['store: expected an object; got "redis://:***@10.0.0.5:6379/0"']);
    expect(
      issuesOf({ ...DEMO_CONFIG, store: { url: 'redis://h:1/0', timeoutMs: 'redis://u:pw@h' } }),
    ).toEqual(['store.timeoutMs: expected a whole number of milliseconds; got "redis://u:***@h"']);
  });
});
