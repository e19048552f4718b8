import { expect, test } from '../uas-fixture.js';

const START = '/v1/merchants/6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01/users/passwordless/start';
const VERIFY = '/v1/merchants/6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01/users/passwordless/verify';
const headers = { authorization: 'Bearer uas-demo-token' };

// `request` stands for your backend here; a test of your app drives its pages instead, and
// reads codes and moves the clock the same way.
test('a code is good for ten minutes, and not a second more', async ({ request, uas }) => {
  const data = { email: 'alice@example.com', caller_id: '203.0.113.7' };
  expect((await request.post(START, { headers, data })).status()).toBe(200);
  const code = (await uas.latestCode('alice@example.com'))?.code;
  await uas.advanceClock(10 * 60_000);
  const late = await request.post(VERIFY, { headers, data: { ...data, verification_code: code } });
  expect(late.status()).toBe(410);
});

test('the sign-in survives a 503 from the service', async ({ request, uas }) => {
  await uas.failNext({ operation: 'start', status: 503 });
  const data = { email: 'alice@example.com', caller_id: '203.0.113.7' };
  expect((await request.post(START, { headers, data })).status()).toBe(503);
  expect((await request.post(START, { headers, data })).status()).toBe(200);
  expect(await uas.requests({ operation: 'start' })).toHaveLength(2);
});
