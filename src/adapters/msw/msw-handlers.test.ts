import { setupServer } from 'msw/node';
import { describe, expect, it, onTestFinished } from 'vitest';
import { DEMO_TOKEN } from '../../demo-config.js';
import { createEmulator } from '../../emulator.js';
import { STRICT } from '../../../test/helpers/msw-options.js';
import { createHandlers } from './msw-handlers.js';

describe('createHandlers({ baseUrl })', () => {
  it.each([
    ['', /got "": it is empty \(an environment variable left unset\?\)/],
    ['   ', /got " {3}": it is empty/],
    ['https://uas.test?x=1', /got "https:\/\/uas.test\?x=1": it has a query/],
    ['https://uas.test/?', /got "https:\/\/uas.test\/\?": it has a query/],
    ['https://uas.test/#frag', /got "https:\/\/uas.test\/#frag": it has a fragment/],
    ['ftp://uas.test', /got "ftp:\/\/uas.test": its scheme is ftp:/],
    ['https://user:secret@uas.test', /it has credentials/],
    ['/uas', /got "\/uas": not an absolute URL/],
  ])('refuses %j with a TypeError naming the value and what is expected', (baseUrl, why) => {
    const make = () => createHandlers({ baseUrl });
    expect(make).toThrow(TypeError);
    expect(make).toThrow(why);
    expect(make).toThrow(/createHandlers: baseUrl must be an absolute http: or https: URL/);
  });

  it('refuses a baseUrl that is not text, such as an unset variable read without a default', () => {
    expect(() => createHandlers({ baseUrl: null as unknown as string })).toThrow(
      /got null: not a string/,
    );
  });

  it('refuses emulator options beside an emulator, which would never reach it', () => {
    const emulator = createEmulator();
    expect(() =>
      createHandlers({ emulator, baseUrl: 'https://uas.test', clock: { now: () => 0 } }),
    ).toThrow(
      new TypeError(
        'createHandlers takes either an emulator or the options to make one; clock would not reach the emulator given: pass it to createEmulator',
      ),
    );
    expect(createHandlers({ emulator, baseUrl: 'https://uas.test' })).toHaveLength(1);
  });

  it('answers under a base URL spelt otherwise than request URLs are (case, default port, trailing slash)', async () => {
    const emulator = createEmulator();
    const server = setupServer(
      ...createHandlers({ emulator, baseUrl: 'HTTPS://UAS.test:443/uas/' }),
    );
    server.listen(STRICT);
    onTestFinished(() => server.close());
    const answer = await fetch('https://uas.test/uas/v1/users/exists?email=alice%40example.com', {
      headers: { authorization: `Bearer ${DEMO_TOKEN}` },
    });
    expect(await answer.json()).toEqual({ exists: true, token_count: 2 });
  });

  it('removes a user in the test, as the dev API does: exists says false through the handlers', async () => {
    const emulator = createEmulator();
    const server = setupServer(...createHandlers({ emulator, baseUrl: 'https://uas.test' }));
    server.listen(STRICT);
    onTestFinished(() => server.close());
    expect(emulator.removeUser('alice@example.com')).toEqual({
      removed: 'alice@example.com',
      codes: 0,
    });
    const answer = await fetch('https://uas.test/v1/users/exists?email=alice%40example.com', {
      headers: { authorization: `Bearer ${DEMO_TOKEN}` },
    });
    expect(await answer.json()).toEqual({ exists: false, token_count: 0 });
    const removed = await fetch('https://uas.test/__uas/users/bob%40example.com', {
      method: 'DELETE',
    });
    expect(await removed.json()).toEqual({ removed: 'bob@example.com', codes: 0 });
  });
});
