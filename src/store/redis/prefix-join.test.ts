import { describe, expect, it } from 'vitest';
import { configFingerprint } from './prefix-join.js';

describe('configFingerprint', () => {
  it('does not depend on the order of keys, nor on the store or the schema', () => {
    const config = { limits: { client: { burst: 5, rate: '1/s' } }, users: [{ email: 'a@b.co' }] };
    expect(configFingerprint(config, false)).toMatch(/^[0-9a-f]{64}$/);
    expect(
      configFingerprint(
        {
          users: [{ email: 'a@b.co' }],
          $schema: 'x',
          store: { url: 'redis://elsewhere' },
          limits: { client: { rate: '1/s', burst: 5 } },
        },
        false,
      ),
    ).toBe(configFingerprint(config, false));
  });

  it('tells configs, and clock modes, apart', () => {
    const config = { limits: { client: { burst: 5 } } };
    expect(configFingerprint(config, true)).not.toBe(configFingerprint(config, false));
    expect(configFingerprint({ limits: { client: { burst: 6 } } }, false)).not.toBe(
      configFingerprint(config, false),
    );
    expect(configFingerprint({ users: [1, 2] }, false)).not.toBe(
      configFingerprint({ users: [2, 1] }, false),
    );
  });
});
