import { describe, expect, it } from 'vitest';
import type { EmulatorEvent } from '../../src/core/records/records.js';
import { configWith, rawExchange, REAL_TOKEN, useInstances } from '../helpers/proxy-stand-in.js';

const start = useInstances();
const exists = (url: string, caller: string, token = REAL_TOKEN) =>
  rawExchange(`${url}/v1/users/exists?email=alice%40example.com&caller_id=${caller}`, {
    headers: { authorization: `Bearer ${token}` },
  });

describe('uas serve --upstream --enforce', () => {
  it("local: refuses with 429 from uas's bucket once it is empty, and the real service never sees the refused request", async () => {
    const real = await start(configWith({ callerBurst: 100 }));
    const proxy = await start(configWith({ callerBurst: 2 }), { base: real.url, enforce: 'local' });
    const answers = [];
    for (let sent = 0; sent < 3; sent++) answers.push(await exists(proxy.url, 'shopper-1'));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
    const header = answers[2]!.rawHeaders;
    const retryAfter = Number(header[header.indexOf('retry-after') + 1]);
    // The bucket refills one token an hour: the wait is that hour.
    expect(retryAfter).toBeGreaterThanOrEqual(3600);
    expect(retryAfter).toBeLessThanOrEqual(3601);
    expect(real.emulator.requests()).toHaveLength(2);
    const refused = proxy.emulator.requests()[2];
    expect(refused).toMatchObject({
      status: 429,
      outcome: 'rate-limited',
      level: 'caller',
      retry_after: retryAfter,
      upstream: { answered_by: 'local', local: 'refused' },
    });
    // A token of the proxy's config counts as its client.
    expect(refused?.bucket).toBe('caller:demo:shopper-1');
  });

  it("shadow: forwards every request and marks those uas's bucket would have refused", async () => {
    const real = await start(configWith({ callerBurst: 100 }));
    const proxy = await start(configWith({ callerBurst: 2 }), {
      base: real.url,
      enforce: 'shadow',
    });
    const statuses = [];
    for (let sent = 0; sent < 3; sent++)
      statuses.push((await exists(proxy.url, 'shopper-1')).status);
    expect(statuses).toEqual([200, 200, 200]);
    expect(real.emulator.requests()).toHaveLength(3);
    expect(
      proxy.emulator.requests().map((record) => [record.outcome, record.upstream?.local]),
    ).toEqual([
      ['allowed', 'allowed'],
      ['allowed', 'allowed'],
      ['shadow-limited', 'refused'],
    ]);
  });

  it('upstream (the default): only the real service decides; uas counts nothing', async () => {
    const real = await start(configWith({ callerBurst: 1 }));
    const proxy = await start(configWith({ callerBurst: 100 }), { base: real.url });
    expect((await exists(proxy.url, 'shopper-1')).status).toBe(200);
    expect((await exists(proxy.url, 'shopper-1')).status).toBe(429);
    expect(proxy.emulator.requests().map((record) => record.upstream?.local)).toEqual([
      undefined,
      undefined,
    ]);
  });

  it("never puts the merchant's token in the journal, the events or a record, wherever it was sent", async () => {
    const real = await start(configWith({ callerBurst: 100 }));
    const proxy = await start(configWith({ callerBurst: 100 }, 'proxy-own-token'), {
      base: real.url,
      enforce: 'shadow',
    });
    const events: EmulatorEvent[] = [];
    proxy.emulator.subscribe((event) => events.push(event));
    await exists(proxy.url, REAL_TOKEN);
    await rawExchange(`${proxy.url}/v1/users/exists?email=alice%40example.com`, {
      headers: { authorization: `Bearer ${REAL_TOKEN}`, 'x-caller-id': REAL_TOKEN },
    });
    const seen = JSON.stringify([proxy.emulator.requests(), proxy.emulator.journal(), events]);
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(seen).toContain('token-');
    expect(seen).not.toContain(REAL_TOKEN);
    // The real service got it, unchanged.
    expect(real.emulator.requests()[0]).toMatchObject({ status: 200, client_id: 'demo' });
  });
});
