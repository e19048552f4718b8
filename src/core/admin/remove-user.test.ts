import { describe, expect, it } from 'vitest';
import { DEMO_CONFIG, DEMO_MERCHANT, DEMO_TOKEN } from '../../demo-config.js';
import { createCoreEmulator, createCoreSharedEmulator } from '../create-core-emulator.js';
import { resolveConfig } from '../config/config.js';
import type { EmulatorRequest } from '../service/exchange.js';
import type { SharedChange, StoreChannel } from '../store/emulator-store.js';
import { createMemoryStore } from '../store/memory-store.js';
import { createManualClock } from '../time/clock.js';
import { createSeededRandom } from '../time/random.js';

const signIn = (action: 'start' | 'verify', body: unknown): EmulatorRequest => ({
  method: 'POST',
  url: `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/${action}`,
  headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const options = { config: DEMO_CONFIG, clock: createManualClock(0), random: createSeededRandom(1) };

/**
 * An emulator on a shared store whose channel sends with `send`, and `hear`, which hands it a
 * change as from another instance.
 */
function sharedEmulator(send: StoreChannel['send']) {
  const store = createMemoryStore(resolveConfig(DEMO_CONFIG));
  let heard: ((change: SharedChange) => void) | undefined;
  const channel: StoreChannel = {
    send,
    listen: (apply) => {
      heard = apply;
    },
    watched: false,
    watching: () => undefined,
  };
  const emulator = createCoreSharedEmulator({
    ...options,
    store: Object.assign(Object.create(store) as typeof store, { kind: 'shared', channel }),
  });
  return { emulator, hear: (change: SharedChange) => heard?.(change) };
}

describe('removing a user', () => {
  it('removes its e-mail and its phone number, and drops its codes at every merchant', () => {
    const emulator = createCoreEmulator(options);
    expect(emulator.handle(signIn('start', { email: 'alice@example.com' })).status).toBe(200);
    expect(emulator.removeUser('ALICE@example.com')).toEqual({
      removed: 'alice@example.com',
      codes: 1,
    });
    expect(emulator.listCodes()).toEqual([]);
    const byPhone = emulator.handle({
      method: 'GET',
      url: '/v1/users/exists?phone_number=%2B14155550101',
      headers: { authorization: `Bearer ${DEMO_TOKEN}` },
    });
    expect(byPhone.body).toEqual({ exists: false, token_count: 0 });
    expect(emulator.removeUser('alice@example.com')).toBeUndefined();
  });

  it('refuses a text that is no e-mail address, and removes no one', () => {
    const emulator = createCoreEmulator(options);
    expect(() => emulator.removeUser('alice')).toThrow(
      /^invalid e-mail: expected an e-mail address/,
    );
    expect(emulator.config.source.users).toHaveLength(3);
    expect(emulator.removeUser('bob@example.com')?.removed).toBe('bob@example.com');
  });

  it('brings the users of the config back on a reset', () => {
    const emulator = createCoreEmulator(options);
    emulator.removeUser('alice@example.com');
    emulator.reset();
    expect(emulator.removeUser('alice@example.com')?.removed).toBe('alice@example.com');
  });

  it('lets no code verify once another instance removed its user, even one still in the store', async () => {
    const { emulator, hear } = sharedEmulator(() => undefined);
    await emulator.handle(signIn('start', { email: 'alice@example.com' }));
    const code = (await emulator.latestCode('alice@example.com'))?.code;
    // Heard from the instance that removed it: the code it issued here is still in the store.
    hear({ type: 'remove-user', email: 'alice@example.com' });
    expect((await emulator.listCodes()).map((entry) => entry.email)).toEqual(['alice@example.com']);
    const verify = await emulator.handle(
      signIn('verify', { email: 'alice@example.com', verification_code: code }),
    );
    expect(verify.status).toBe(404);
    expect((verify.body as { type: string }).type).toBe('urn:uas:problem:code-not-found');
  });

  it('tells its listeners and event readers of users added and removed, and heard from another instance', async () => {
    // The store keeps each change at once, in its place: applied here as it is sent.
    const { emulator, hear } = sharedEmulator((_change, apply) => {
      apply?.();
      return undefined;
    });
    const heard: unknown[] = [];
    emulator.subscribe((event) => heard.push(event));
    await emulator.addUsers([{ email: 'dan@example.com' }]);
    await emulator.removeUser('DAN@example.com');
    hear({ type: 'users', users: [{ email: 'eve@example.com' }] });
    hear({ type: 'remove-user', email: 'eve@example.com' });
    // A removal of a user this instance does not have tells nothing, nor an empty list of users.
    hear({ type: 'remove-user', email: 'nobody@example.com' });
    await emulator.addUsers([]);
    hear({ type: 'users', users: [] });
    expect(heard).toEqual([
      { type: 'users', added: 1, removed: undefined },
      { type: 'users', added: 0, removed: 'dan@example.com' },
      { type: 'users', added: 1, removed: undefined },
      { type: 'users', added: 0, removed: 'eve@example.com' },
    ]);
  });

  it('tells its event readers of its own change of users read back from the store after a reset', async () => {
    const { emulator, hear } = sharedEmulator((_change, apply) => {
      apply?.();
      return undefined;
    });
    const answer = await emulator.handle({ method: 'GET', url: '/__uas/events', headers: {} });
    const reader = answer.stream!.getReader();
    // Kept after a reset this instance heard while keeping them: applied as read back, its own.
    hear({ type: 'users', users: [{ email: 'dan@example.com' }], own: true });
    hear({ type: 'remove-user', email: 'dan@example.com', own: true });
    // Another instance's change: that instance told every reader.
    hear({ type: 'users', users: [{ email: 'eve@example.com' }] });
    // This instance's own change, made here: the last event.
    await emulator.addUsers([{ email: 'fay@example.com' }, { email: 'gus@example.com' }]);
    const sent: Array<{ added?: number }> = [];
    while (sent.at(-1)?.added !== 2) {
      const { value } = await reader.read();
      for (const line of new TextDecoder().decode(value).split('\n'))
        if (line.startsWith('data: ')) sent.push(JSON.parse(line.slice(6)));
    }
    await reader.cancel();
    expect(sent).toEqual([
      { type: 'users', added: 1 },
      { type: 'users', added: 0, removed: 'dan@example.com' },
      { type: 'users', added: 2 },
    ]);
  });

  it('passes on another instance’s users event once it has read that change of users itself', async () => {
    let caughtUp: () => void = () => {};
    const store = createMemoryStore(resolveConfig(DEMO_CONFIG));
    let heard: ((change: SharedChange) => void) | undefined;
    const channel: StoreChannel = {
      send: () => undefined,
      listen: (apply) => {
        heard = apply;
      },
      watched: false,
      watching: () => undefined,
      // The read of the list of users, under way until the test lets it end.
      catchUpUsers: () =>
        new Promise<void>((resolve) => {
          caughtUp = () => {
            heard?.({ type: 'users', users: [{ email: 'dan@example.com' }] });
            resolve();
          };
        }),
    };
    const emulator = createCoreSharedEmulator({
      ...options,
      store: Object.assign(Object.create(store) as typeof store, { kind: 'shared', channel }),
    });
    const answer = await emulator.handle({ method: 'GET', url: '/__uas/events', headers: {} });
    const reader = answer.stream!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('retry: 2000\n\n');
    const next = reader.read();
    heard?.({ type: 'event', event: { type: 'users', added: 1, removed: undefined } });
    const early = await Promise.race([next, new Promise((resolve) => setTimeout(resolve, 50))]);
    // Not before this instance has dan: a reader that reads its users on the event finds him.
    expect(early).toBeUndefined();
    caughtUp();
    const { value } = await next;
    expect(new TextDecoder().decode(value)).toContain('data: {"type":"users","added":1}');
    expect(emulator.listUsers({ email: 'dan@example.com' }).total).toBe(1);
    await reader.cancel();
  });

  it('tells nothing of an empty list of users, added here or heard: no user changed', async () => {
    const { emulator, hear } = sharedEmulator((_change, apply) => {
      apply?.();
      return undefined;
    });
    const heard: unknown[] = [];
    emulator.subscribe((event) => heard.push(event));
    expect(await emulator.addUsers([])).toEqual({ added: 0, replaced: 0 });
    hear({ type: 'users', users: [] });
    const memory = createCoreEmulator(options);
    memory.subscribe((event) => heard.push(event));
    expect(memory.addUsers([])).toEqual({ added: 0, replaced: 0 });
    expect(heard).toEqual([]);
  });
});
