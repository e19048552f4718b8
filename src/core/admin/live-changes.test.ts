import { describe, expect, it } from 'vitest';
import { DEMO_CONFIG } from '../../demo-config.js';
import { createCoreSharedEmulator } from '../create-core-emulator.js';
import { resolveConfig } from '../config/config.js';
import {
  StoreUnavailableError,
  type SendOutcome,
  type SharedChange,
  type StoreChannel,
} from '../store/emulator-store.js';
import { createMemoryStore } from '../store/memory-store.js';
import { createManualClock } from '../time/clock.js';
import { createSeededRandom } from '../time/random.js';

const options = { config: DEMO_CONFIG, clock: createManualClock(0), random: createSeededRandom(1) };

/** An emulator on a memory store shared through `channel` (what another instance would hear). */
function sharedWith(
  channel: Pick<StoreChannel, 'send'> & Partial<StoreChannel>,
): ReturnType<typeof createCoreSharedEmulator> {
  const store = createMemoryStore(resolveConfig(DEMO_CONFIG));
  const whole: StoreChannel = {
    listen: () => undefined,
    watched: false,
    watching: () => undefined,
    ...channel,
  };
  return createCoreSharedEmulator({
    ...options,
    store: Object.assign(Object.create(store) as typeof store, { kind: 'shared', channel: whole }),
  });
}

describe('a live config change on a shared store', () => {
  it('answers the config its change left when a later change, heard first, holds it', async () => {
    let hear: ((change: SharedChange) => void) | undefined;
    const emulator = sharedWith({
      // Kept, but a reset another instance made after it was heard here before the answer came.
      send: (change) => {
        if (change.type !== 'config') return undefined;
        hear?.({ type: 'reset' });
        return Promise.resolve('superseded');
      },
      listen: (apply) => {
        hear = apply;
      },
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
    let hear: ((change: SharedChange) => void) | undefined;
    const emulator = sharedWith({
      send: () => undefined,
      listen: (apply) => {
        hear = apply;
      },
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

describe("an instance's own changes on a shared store", () => {
  /**
   * A store that keeps a change only on the list of changes it was made on, as Redis does: one
   * sent while another of this instance is out is stale, and made again.
   */
  const keeping = () => {
    let kept = 0;
    let sent = 0;
    const emulator = sharedWith({
      send: (change, apply) => {
        if (change.type === 'event' || change.type === 'reset') return undefined;
        sent++;
        const madeOn = kept;
        return new Promise<SendOutcome>((resolve) => {
          setImmediate(() => {
            if (madeOn !== kept) return resolve('stale');
            kept++;
            apply?.();
            resolve(undefined);
          });
        });
      },
    });
    return { emulator, sent: () => sent };
  };

  it('makes many sent at once one after another, none refused though no other instance changed anything', async () => {
    const { emulator, sent } = keeping();
    const answers = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) =>
        emulator.addUsers([{ email: `user${index}@example.com` }]),
      ),
    );
    expect(answers.filter((answer) => answer.status === 'rejected')).toEqual([]);
    expect(emulator.listUsers().total).toBe(23);
    // Each made once: none found stale.
    expect(sent()).toBe(20);
    const patches = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) =>
        emulator.configure({ limits: { caller: { burst: 10 + index } } }),
      ),
    );
    expect(patches.filter((answer) => answer.status === 'rejected')).toEqual([]);
    expect(emulator.config.limits.caller.burst).toBe(29);
  });

  it('checks each on what the one before left: two that give one number are not both kept', async () => {
    const { emulator } = keeping();
    const answers = await Promise.allSettled([
      emulator.addUsers([{ email: 'dan@example.com', phone_number: '+15550000009' }]),
      emulator.addUsers([{ email: 'eve@example.com', phone_number: '+15550000009' }]),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(['fulfilled', 'rejected']);
    expect(
      emulator.listUsers().users.filter((user) => user.phone_number === '+15550000009'),
    ).toEqual([{ email: 'dan@example.com', phone_number: '+15550000009', token_count: 0 }]);
  });

  it('refuses those waiting behind one the store failed at once, with its failure, without sending them', async () => {
    let fail: ((error: Error) => void) | undefined;
    let sent = 0;
    const emulator = sharedWith({
      send: (change) => {
        if (change.type === 'event') return undefined;
        sent++;
        return new Promise<SendOutcome>((_, reject) => {
          fail = reject;
        });
      },
    });
    const answers = Promise.allSettled(
      Array.from({ length: 5 }, (_, index) =>
        emulator.addUsers([{ email: `user${index}@example.com` }]),
      ),
    );
    await new Promise((resolve) => setImmediate(resolve));
    fail?.(new StoreUnavailableError('Redis at redis://127.0.0.1:6379 did not answer in time'));
    const settled = await answers;
    expect(settled.map((answer) => answer.status)).toEqual(Array(5).fill('rejected'));
    expect(sent).toBe(1);
    // The next one, sent after, is tried.
    void emulator.addUsers([{ email: 'late@example.com' }]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toBe(2);
  });
});

describe('a change other instances keep outpacing', () => {
  it('answers 503 saying the store answered but kept the others first, not that it did not answer', async () => {
    const emulator = sharedWith({
      send: (change) => (change.type === 'users' ? Promise.resolve('stale') : undefined),
    });
    const answer = await emulator.handle({
      method: 'POST',
      url: '/__uas/users',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ users: [{ email: 'dan@example.com' }] }),
    });
    expect(answer.status).toBe(503);
    expect((answer.body as { detail: string }).detail).toBe(
      "the shared store answered but did not keep this change: it kept another instance's change of users first, 8 times in a row; nothing was changed",
    );
    expect(emulator.listUsers().total).toBe(3);
  });
});

describe('the answer to users added on a shared store', () => {
  it('counts those added and replaced also when the change is kept but applied here only as read back (a reset came meanwhile)', async () => {
    const emulator = sharedWith({
      // Kept, but not applied at once: a reset came here while it was out.
      send: () => Promise.resolve(undefined),
    });
    expect(
      await emulator.addUsers([{ email: 'dan@example.com' }, { email: 'Alice@example.com' }]),
    ).toEqual({ added: 1, replaced: 1 });
  });
});
