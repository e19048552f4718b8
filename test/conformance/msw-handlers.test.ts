import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createHandlers, type HandlersOptions } from '../../src/adapters/msw/msw-handlers.js';
import { DEMO_TOKEN } from '../../src/demo-config.js';
import { createEmulator } from '../../src/emulator.js';
import { STRICT } from '../helpers/msw-options.js';

describe('createHandlers', () => {
  it('needs a baseUrl: without one its handlers would answer /v1/* of every origin', () => {
    expect(() => createHandlers({} as HandlersOptions)).toThrow(/needs baseUrl/);
    expect(() => createHandlers({ baseUrl: 'uas.test' })).toThrow(/absolute URL/);
  });

  it('answers under its base URL and prefix only, and leaves your own API alone', async () => {
    const emulator = createEmulator();
    const server = setupServer(
      ...createHandlers({ emulator, baseUrl: 'https://app.test/uas' }),
      http.get('https://app.test/v1/users/exists', () => HttpResponse.json({ mine: true })),
    );
    server.listen(STRICT);
    onTestFinished(() => server.close());
    const headers = { authorization: `Bearer ${DEMO_TOKEN}` };
    const emulated = await fetch('https://app.test/uas/v1/users/exists?email=alice%40example.com', {
      headers,
    });
    expect(await emulated.json()).toEqual({ exists: true, token_count: 2 });
    const own = await fetch('https://app.test/v1/users/exists?email=alice%40example.com', {
      headers,
    });
    expect(await own.json()).toEqual({ mine: true });
    expect(emulator.requests()).toHaveLength(1);
  });
});
