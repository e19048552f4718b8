import { describe, expect, it } from 'vitest';
import { DEMO_CONFIG } from '../../demo-config.js';
import { createCoreEmulator } from '../create-core-emulator.js';
import { createManualClock } from '../time/clock.js';
import { createSeededRandom } from '../time/random.js';
import type { UserQuery } from './admin.js';

const emulator = () =>
  createCoreEmulator({
    config: DEMO_CONFIG,
    clock: createManualClock(0),
    random: createSeededRandom(1),
  });

describe('a page of users in process (listUsers)', () => {
  it('walks every user once, page by page, as GET /__uas/users does', () => {
    const uas = emulator();
    const first = uas.listUsers({ limit: 2 });
    expect(first).toMatchObject({ total: 3, offset: 0, next_offset: 2 });
    const second = uas.listUsers({ offset: first.next_offset ?? 0, limit: 2 });
    expect(second).toMatchObject({ total: 3, offset: 2, next_offset: null });
    expect([...first.users, ...second.users].map((user) => user.email)).toEqual([
      'alice@example.com',
      'bob@example.com',
      'carol@example.com',
    ]);
  });

  it.each<[string, unknown]>([
    ['a negative offset', { offset: -1 }],
    ['a fractional offset', { offset: 1.5 }],
    ['an offset given as text', { offset: '1' }],
    ['an offset past the most users', { offset: 1_000_001 }],
    ['a limit of 0', { limit: 0 }],
    ['a negative limit', { limit: -1 }],
    ['a limit that is no number', { limit: Number.NaN }],
    ['a limit past the largest page', { limit: 100_001 }],
    ['a field it does not have', { offest: 1 }],
    ['null', null],
  ])('refuses %s, naming it, as the dev API answers 400', (_, query) => {
    const uas = emulator();
    expect(() => uas.listUsers(query as UserQuery)).toThrow(/^invalid page of users: /);
  });

  it('takes the bounds themselves', () => {
    const uas = emulator();
    expect(uas.listUsers({ offset: 1_000_000, limit: 100_000 })).toEqual({
      total: 3,
      offset: 1_000_000,
      next_offset: null,
      users: [],
    });
    expect(uas.listUsers({ offset: undefined, limit: undefined }).users).toHaveLength(3);
  });

  it('finds no user by a text that is no e-mail address, though it lower-cases to one, as the service finds none', () => {
    const uas = emulator();
    // U+212A KELVIN SIGN lower-cases to "k": the service refuses such an e-mail (400).
    expect(uas.listUsers({ email: 'ALICE@EXAMPLE.COM' }).total).toBe(1);
    uas.addUsers([{ email: 'kim@example.com' }]);
    expect(uas.listUsers({ email: '\u212Aim@example.com' })).toEqual({
      total: 0,
      offset: 0,
      next_offset: null,
      users: [],
    });
  });
});
