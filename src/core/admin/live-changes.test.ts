import { describe, expect, it } from 'vitest';
import { DEMO_CONFIG } from '../../demo-config.js';
import { createCoreSharedEmulator } from '../create-core-emulator.js';
import { resolveConfig } from '../config/config.js';
import type { SharedChange, StoreChannel } from '../store/emulator-store.js';
import { createMemoryStore } from '../store/memory-store.js';
import { createManualClock } from '../time/clock.js';
import { createSeededRandom } from '../time/random.js';

const options = { config: DEMO_CONFIG, clock: createManualClock(0), random: createSeededRandom(1) };

describe('a live config change on a shared store', () => {
  it('answers the config its change left when a later change, heard first, holds it', async () => {
    const store = createMemoryStore(resolveConfig(DEMO_CONFIG));
    let hear: ((change: SharedChange) => void) | undefined;
    const channel: StoreChannel = {
      // Kept, but a reset another instance made after it was heard here before the answer came.
      send: (change) => {
        if (change.type !== 'config') return undefined;
        hear?.({ type: 'reset' });
        return Promise.resolve('superseded');
      },
      listen: (apply) => {
        hear = apply;
      },
      watched: false,
      watching: () => undefined,
    };
    const emulator = createCoreSharedEmulator({
      ...options,
      store: Object.assign(Object.create(store) as typeof store, { kind: 'shared', channel }),
    });
    const answer = await emulator.configure({ limits: { caller: { burst: 2 } } });
    expect(answer.limits.caller.burst).toBe(2);
    // And so does the dev API.
    const patched = await emulator.handle({
      method: 'PATCH',
      url: '/__uas/config',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ limits: { caller: { burst: 3 } } }),
    });
    expect(patched.status).toBe(200);
    expect((patched.body as { limits: { caller: { burst: number } } }).limits.caller.burst).toBe(3);
    // Not applied here again: the reset heard after it is what holds.
    expect(emulator.config.limits.caller.burst).toBe(5);
  });
});

describe('users added on another instance sharing the store', () => {
  const listening = () => {
    const store = createMemoryStore(resolveConfig(DEMO_CONFIG));
    let hear: ((change: SharedChange) => void) | undefined;
    const channel: StoreChannel = {
      send: () => undefined,
      listen: (apply) => {
        hear = apply;
      },
      watched: false,
      watching: () => undefined,
    };
    const emulator = createCoreSharedEmulator({
      ...options,
      store: Object.assign(Object.create(store) as typeof store, { kind: 'shared', channel }),
    });
    return { emulator, hear: (change: SharedChange) => hear?.(change) };
  };

  it('leaves out a batch that would give a user the phone number another user here has', async () => {
    const { emulator, hear } = listening();
    const before = emulator.listUsers();
    // Made on another instance before it heard of a reset that gave carol her number back.
    hear({ type: 'users', users: [{ email: 'eve@example.com', phone_number: '+447700900123' }] });
    expect(emulator.listUsers()).toEqual(before);
    const byPhone = await emulator.handle({
      method: 'GET',
      url: '/v1/users/exists?phone_number=%2B447700900123',
      headers: { authorization: 'Bearer uas-demo-token' },
    });
    expect(byPhone.body).toEqual({ exists: true, token_count: 1 });
  });

  it('applies a batch that swaps two users numbers, or gives one to a new user', () => {
    const { emulator, hear } = listening();
    hear({
      type: 'users',
      users: [
        { email: 'alice@example.com', phone_number: '+447700900123' },
        { email: 'carol@example.com', phone_number: '+14155550101' },
      ],
    });
    hear({ type: 'remove-user', email: 'bob@example.com' });
    hear({ type: 'users', users: [{ email: 'dan@example.com', phone_number: '+15550000001' }] });
    expect(emulator.listUsers().users.map((user) => `${user.email} ${user.phone_number}`)).toEqual([
      'alice@example.com +447700900123',
      'carol@example.com +14155550101',
      'dan@example.com +15550000001',
    ]);
  });
});
