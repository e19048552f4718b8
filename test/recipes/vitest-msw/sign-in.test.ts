import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createEmulator, createHandlers, createManualClock } from 'uas/msw';

// One emulator per test file, back to its initial state before each test.
const clock = createManualClock(Date.parse('2026-01-01T00:00:00Z'));
const emulator = createEmulator({ clock }); // the bundled demo config; pass `config` for yours
const server = setupServer(...createHandlers({ emulator, baseUrl: 'https://uas.test' }));

beforeAll(() => server.listen());
beforeEach(() => emulator.reset());
afterAll(() => server.close());

// The code under test: your backend's sign-in step, which calls the service with plain fetch.
const MERCHANT = '6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01';
async function startSignIn(email: string, shopperIp: string): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const answer = await fetch(
      `https://uas.test/v1/merchants/${MERCHANT}/users/passwordless/start`,
      {
        method: 'POST',
        headers: { authorization: 'Bearer uas-demo-token', 'content-type': 'application/json' },
        body: JSON.stringify({ email, caller_id: shopperIp }),
      },
    );
    if (answer.status !== 503 || attempt === 2) return answer.status;
  }
}

it('sends one start for the shopper, with their caller_id, and a code is issued', async () => {
  expect(await startSignIn('alice@example.com', '203.0.113.7')).toBe(200);
  expect(emulator.requests({ operation: 'start' })).toEqual([
    expect.objectContaining({ email: 'alice@example.com', caller_id: '203.0.113.7', status: 200 }),
  ]);
  expect(emulator.latestCode('alice@example.com')?.code).toMatch(/^\d{6}$/);
});

it('retries once when the service answers 503', async () => {
  emulator.failNext({ operation: 'start', status: 503 });
  expect(await startSignIn('alice@example.com', '203.0.113.7')).toBe(200);
  expect(emulator.requests().map((request) => request.status)).toEqual([503, 200]);
});

it('refills a bucket when the clock moves, without sleeping', async () => {
  for (let index = 0; index < 5; index++) await startSignIn('bob@example.com', '198.51.100.4');
  expect(await startSignIn('bob@example.com', '198.51.100.4')).toBe(429);
  clock.advance(1_000); // one token a second comes back
  expect(await startSignIn('bob@example.com', '198.51.100.4')).toBe(200);
});
