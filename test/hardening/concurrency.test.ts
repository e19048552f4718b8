import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_CONFIG, DEMO_MERCHANT } from '../../src/demo-config.js';
import { createApi } from '../helpers/api.js';
import { useTransports, type AnyTarget } from '../helpers/targets.js';

const TRANSPORTS = useTransports();

describe.each(TRANSPORTS)('concurrent requests over $name', (transport) => {
  let target: AnyTarget | undefined;
  afterEach(async () => {
    await target?.close();
    target = undefined;
  });

  it('allow exactly the burst of one bucket when nothing refills', async () => {
    // The manual clock stands still: no token comes back while the requests race.
    target = await transport.start({
      config: {
        ...DEMO_CONFIG,
        limits: { ...DEMO_CONFIG.limits, caller: { burst: 7, rate: '1/h' } },
      },
    });
    const api = createApi(target.baseUrl);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        index % 3 === 0
          ? api.start({ email: 'bob@example.com', caller_id: 'race' })
          : api.exists('email=alice%40example.com&caller_id=race'),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(7);
    expect(statuses.filter((status) => status === 429)).toHaveLength(53);
    expect(await target.emulator.getBucket('caller:demo:race')).toMatchObject({
      allowed: 7,
      rejected: 53,
      remaining: 0,
    });
  });

  it('allow exactly the configured wrong codes before the code dies', async () => {
    target = await transport.start({
      config: {
        ...DEMO_CONFIG,
        limits: { ...DEMO_CONFIG.limits, caller: { burst: 1000, rate: '1/s' } },
      },
    });
    const api = createApi(target.baseUrl);
    await api.start({ email: 'alice@example.com' });
    const code = (await target.emulator.latestCode('alice@example.com', DEMO_MERCHANT))
      ?.code as string;
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        api.verify({
          email: 'alice@example.com',
          verification_code: wrong,
          caller_id: `v${index}`,
        }),
      ),
    );
    const kinds = answers.map((answer) => answer.body.type);
    expect(kinds.filter((kind) => kind === 'urn:uas:problem:code-invalid')).toHaveLength(5);
    expect(kinds.filter((kind) => kind === 'urn:uas:problem:code-attempts-exhausted')).toHaveLength(
      25,
    );
    const counted = answers
      .filter((answer) => answer.body.type === 'urn:uas:problem:code-invalid')
      .map((answer) => answer.body.attempts_remaining);
    expect(counted.sort()).toEqual([0, 1, 2, 3, 4]);
    expect((await api.verify({ email: 'alice@example.com', verification_code: code })).status).toBe(
      403,
    );
  });
});
