// The page of the browser test: uas/msw (as built, from dist/) in msw's service worker.
import { setupWorker } from 'msw/browser';
import {
  createEmulator,
  createHandlers,
  createManualClock,
} from '../../dist/adapters/msw/index.js';

const clock = createManualClock(Date.UTC(2026, 0, 1));
const emulator = createEmulator({
  clock,
  config: {
    clients: [{ id: 'web', token: 'browser-token', merchants: [] }],
    users: [{ email: 'alice@example.com', token_count: 2 }],
    limits: { client: { burst: 3, rate: '1/s' }, caller: { burst: 2, rate: '1/s' } },
  },
});
const worker = setupWorker(...createHandlers({ emulator, baseUrl: `${location.origin}/uas` }));

async function run(): Promise<unknown> {
  const ask = async () => {
    const answer = await fetch('/uas/v1/users/exists?email=alice%40example.com', {
      headers: { authorization: 'Bearer browser-token' },
    });
    return {
      status: answer.status,
      body: (await answer.json()) as unknown,
      bucket: answer.headers.get('uas-bucket'),
      retryAfter: answer.headers.get('retry-after'),
    };
  };
  const answers = [];
  for (let index = 0; index < 4; index++) answers.push(await ask());
  clock.advance(1_000);
  answers.push(await ask());
  return { answers, recorded: emulator.requests().length };
}

// Requests the handlers do not answer (the page itself) go to the network: msw 2 and 3 name the
// option differently.
await worker.start({
  quiet: true,
  onUnhandledRequest: 'bypass',
  onUnhandledFrame: 'bypass',
} as unknown as Parameters<typeof worker.start>[0]);
Object.assign(window, { runUas: run, uasReady: true });
