import { describe, expect, it } from 'vitest';
import { checkServeFlags } from './check-serve-flags.js';
import type { ServeFlags } from './serve-flags.js';

const proxy = (more: Partial<ServeFlags> = {}): ServeFlags => ({
  port: 0,
  host: '127.0.0.1',
  clock: 'system',
  engine: 'fast',
  log: 'pretty',
  ui: true,
  workers: 1,
  upstream: 'http://127.0.0.1:9',
  ...more,
});

describe('checkServeFlags with --upstream', () => {
  it.each([
    ['chaos', { chaos: 0.2 }],
    ['latency', { latency: '20ms' }],
  ])('refuses the config’s %s, and takes a flag of 0 that turns it off', (name, behavior) => {
    expect(() => checkServeFlags(proxy(), { behavior })).toThrow(
      `the config's behavior.${name} does not apply with --upstream: the real service answers; remove it, or give --${name} 0`,
    );
    const off = name === 'chaos' ? { chaos: 0 } : { latency: '0ms' };
    expect(() => checkServeFlags(proxy(off), { behavior })).not.toThrow();
  });

  it('refuses a flag of chaos or latency that adds any, whatever the config says', () => {
    expect(() => checkServeFlags(proxy({ chaos: 0.5 }), {})).toThrow(
      '--chaos does not apply with --upstream: the real service answers; drop it',
    );
    expect(() => checkServeFlags(proxy({ latency: '50ms' }), { behavior: { latency: 0 } })).toThrow(
      '--latency does not apply with --upstream',
    );
    expect(() => checkServeFlags(proxy({ chaos: 0, latency: '0' }), {})).not.toThrow();
  });
});
