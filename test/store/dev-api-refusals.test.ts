import { describe, expect, it } from 'vitest';
import { DEMO_MERCHANT } from '../../src/demo-config.js';
import { devRequest, existsRequest, storesUnderTest } from '../helpers/stores-under-test.js';

const { stores } = storesUnderTest();

describe.each(stores)('the dev API on $name', (store) => {
  it.each([
    [{ opertion: 'start', status: 503 }, 'opertion', 'operation'],
    [{ status: 503, latencyMs: 3_000 }, 'latencyMs', 'latency_ms'],
  ])('refuses the fault %j, naming %s, and schedules nothing', async (fault, field, suggested) => {
    const { emulator } = await store.start();
    const refused = await emulator.handle(devRequest('POST', '/faults', fault));
    expect(refused.status).toBe(400);
    expect(refused.headers['content-type']).toBe('application/problem+json');
    expect(refused.body).toMatchObject({
      type: 'urn:uas:problem:invalid-request',
      errors: [{ pointer: `#/${field}` }],
    });
    expect((refused.body as { detail: string }).detail).toBe(
      `${field}: unknown field (did you mean "${suggested}"?)`,
    );
    expect((await emulator.handle(devRequest('GET', '/faults'))).body).toEqual({ faults: [] });
    expect((await emulator.handle(existsRequest())).status).toBe(200);
  });

  it('refuses a fault with a field it does not know in process too', async () => {
    const { emulator } = await store.start();
    const fault = { opertion: 'start', status: 503 } as never;
    expect(() => emulator.failNext(fault)).toThrow(/opertion: unknown field/);
    expect(emulator.faults()).toEqual([]);
  });

  it.each([
    '/requests?email=a%40b.co&email=c%40d.co',
    '/requests?caller_id=a&caller_id=',
    '/requests?client_id=demo&client_id=demo',
    `/requests?merchant_id=${DEMO_MERCHANT}&merchant_id=x`,
    '/buckets?client=demo&client=other',
    '/buckets?search=a&search=b',
    '/codes?email=a%40b.co&email=c%40d.co',
    `/codes?email=a%40b.co&merchant_id=${DEMO_MERCHANT}&merchant_id=x`,
    `/codes/a%40b.co?merchant_id=${DEMO_MERCHANT}&merchant_id=x`,
  ])('refuses %s: a free-text filter given twice', async (path) => {
    const { emulator } = await store.start();
    const name = /[?&]([a-z_]+)=[^&]*&\1=/.exec(path)?.[1] as string;
    const refused = await emulator.handle(devRequest('GET', path));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      type: 'urn:uas:problem:duplicate-parameter',
      detail: `${name} is given 2 times; give it once`,
      errors: [{ parameter: name, pointer: `#/${name}` }],
    });
  });
});
