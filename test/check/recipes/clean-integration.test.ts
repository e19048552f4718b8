import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from 'uas';
import { createEmulator, createHandlers, expectCleanIntegration } from 'uas/msw';

// One emulator for the whole file, never reset, so that uas check judges all the suite sent.
const emulator = createEmulator();
const server = setupServer(...createHandlers({ emulator, baseUrl: 'https://uas.test' }));

beforeAll(() => server.listen());
afterAll(() => server.close());
// Fails the file, the report as its error, when what the tests sent breaks a rule of the spec.
afterAll(() => expectCleanIntegration(emulator));

// The code under test: your backend's sign-in, here through uas's own client.
const MERCHANT = '6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01';
async function signIn(email: string, shopperIp: string): Promise<string> {
  const uas = createClient({ baseUrl: 'https://uas.test', token: 'uas-demo-token' });
  const started = await uas.start({ merchantId: MERCHANT, email, callerId: shopperIp });
  if (!started.ok) return started.outcome;
  const code = emulator.latestCode(email, MERCHANT)?.code ?? '';
  const verified = await uas.verify({ merchantId: MERCHANT, email, code, callerId: shopperIp });
  return verified.outcome;
}

it('signs alice in', async () => {
  expect(await signIn('alice@example.com', '203.0.113.7')).toBe('success');
});

it('signs carol in, from her own address', async () => {
  expect(await signIn('carol@example.com', '198.51.100.4')).toBe('success');
});
