import { describe, expect, it } from 'vitest';
import { DEMO_CONFIG } from '../../demo-config.js';
import { formatIssue, isConfigError } from './config-error.js';
import { applyConfigPatch, resolveConfig } from './config.js';

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
      'limits.client.burst: expected at least 1',
      'limits.client.rate: expected a rate such as "10/s", "100/m" or "5/10s"; got "fast"',
    ]);
    expect(
      issuesOf({ ...DEMO_CONFIG, clients: [{ id: 'a', token: 'abcdefgh', merchants: ['nope'] }] }),
    ).toEqual(['clients[0].merchants[0]: expected a merchant id in UUID form']);
    expect(issuesOf({ ...DEMO_CONFIG, limitz: {} })[0]).toContain('limitz');
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

  it('refuses fields that cannot change live', () => {
    const base = resolveConfig(DEMO_CONFIG);
    expect(() => applyConfigPatch(base.source, { users: [] })).toThrow(/users/);
  });
});
