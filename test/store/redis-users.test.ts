import { describe, expect, it } from 'vitest';
import { createSharedEmulator } from '../../src/emulator.js';
import { eventually } from '../helpers/eventually.js';
import { HAS_REDIS } from '../helpers/redis-server.js';
import { exists, redisOfTheseTests, signIn, SLOW } from './redis-store-fixtures.js';

describe.skipIf(!HAS_REDIS)('users removed live on the Redis store', () => {
  const tests = redisOfTheseTests();
  const known = async (
    emulator: Awaited<ReturnType<typeof tests.instance>>,
    email: string,
  ): Promise<boolean> =>
    ((await emulator.handle(exists(email))).body as { exists: boolean }).exists;

  it('removes a user on every instance and drops its code, which no instance then accepts', async () => {
    const a = await tests.instance();
    const b = await tests.instance();
    expect((await b.handle(signIn('start', { email: 'alice@example.com' }))).status).toBe(200);
    const code = (await a.latestCode('alice@example.com'))?.code;
    expect(code).toMatch(/^\d{6}$/);

    expect(await a.removeUser('Alice@Example.com')).toEqual({
      removed: 'alice@example.com',
      codes: 1,
    });
    expect(await known(a, 'alice@example.com')).toBe(false);
    await eventually(async () => !(await known(b, 'alice@example.com')));
    expect(await b.latestCode('alice@example.com')).toBeUndefined();
    const verify = await b.handle(
      signIn('verify', { email: 'alice@example.com', verification_code: code }),
    );
    expect(verify.status).toBe(404);
    expect((verify.body as { type: string }).type).toBe('urn:uas:problem:code-not-found');
    expect((await b.handle(signIn('start', { email: 'alice@example.com' }))).status).toBe(404);
    // Removed already, on another instance: none to remove.
    expect(await b.removeUser('alice@example.com')).toBeUndefined();
  });

  it('keeps additions and removals in order, so an instance that joins later replays them', async () => {
    const a = await tests.instance();
    await a.addUsers([{ email: 'dave@example.com' }]);
    await a.removeUser('dave@example.com');
    await a.removeUser('alice@example.com');
    await a.addUsers([{ email: 'alice@example.com', token_count: 7 }]);
    expect(await tests.inspect.lrange('uas:users', 0, -1)).toEqual([
      '[{"email":"dave@example.com"}]',
      '["remove","dave@example.com"]',
      '["remove","alice@example.com"]',
      '[{"email":"alice@example.com","token_count":7}]',
    ]);
    const joiner = await tests.store();
    expect(joiner.joined).toBe(true);
    const late = createSharedEmulator({ config: SLOW, store: joiner });
    expect(await known(late, 'dave@example.com')).toBe(false);
    expect((await late.handle(exists('alice@example.com'))).body).toEqual({
      exists: true,
      token_count: 7,
    });
    expect((await late.handle(exists('bob@example.com'))).body).toMatchObject({ exists: true });
    // Alice removed, then added again: after the config's users, as the instance that made it lists them.
    const emails = (emulator: typeof late) =>
      emulator.listUsers().users.map((user) => `${user.email} ${user.token_count}`);
    expect(emails(late)).toEqual([
      'bob@example.com 0',
      'carol@example.com 1',
      'alice@example.com 7',
    ]);
    expect(emails(late)).toEqual(emails(a));
  });

  it('removes no one while Redis is away: the removal is refused and made nowhere', async () => {
    const a = await tests.instance({ timeoutMs: 300 });
    const b = await tests.instance({ timeoutMs: 300 });
    await tests.server.kill();
    await expect(a.removeUser('alice@example.com')).rejects.toThrow(/^Redis at /);
    await tests.server.restart();
    await eventually(async () => (await a.handle(exists('alice@example.com'))).status === 200);
    expect(await known(a, 'alice@example.com')).toBe(true);
    await eventually(async () => (await b.handle(exists('alice@example.com'))).status === 200);
    expect(await known(b, 'alice@example.com')).toBe(true);
  });

  it('catches up, once its subscriber is back, with users added and removed while it was away', async () => {
    const a = await tests.instance();
    const b = await tests.instance();
    await a.addUsers([{ email: 'first@example.com' }]);
    await eventually(() => known(b, 'first@example.com'));
    // Changes kept in Redis but never heard (as ones sent while the subscribers were away): the
    // list written as an instance writes it, then the subscribers cut off, and reconnecting.
    await tests.inspect.rpush(
      'uas:users',
      JSON.stringify([{ email: 'late@example.com' }]),
      JSON.stringify(['remove', 'first@example.com']),
    );
    await tests.inspect.client('KILL', 'TYPE', 'pubsub');
    for (const instance of [a, b])
      await eventually(
        async () =>
          (await known(instance, 'late@example.com')) &&
          !(await known(instance, 'first@example.com')),
      );
    // What each has seen is counted: a change heard later is applied once, on both.
    await a.addUsers([{ email: 'after@example.com' }]);
    await eventually(() => known(b, 'after@example.com'));
    expect(await known(b, 'late@example.com')).toBe(true);
  });

  it('catches up with users added after Redis lost its list (restarted empty), past a count of before', async () => {
    const a = await tests.instance();
    const b = await tests.instance();
    // Polled with the buckets reset each time (exists takes a token of the client's bucket).
    const knows = (instance: typeof a, email: string) => async () =>
      (await instance.resetBuckets()) !== undefined && (await known(instance, email));
    await a.addUsers([{ email: 'first@example.com' }]);
    await a.removeUser('bob@example.com');
    await eventually(async () => !(await known(b, 'bob@example.com')));
    // Redis restarted without its data: the list starts over, and one change kept there since
    // (by an instance that reconnected first) was sent while the subscribers were away.
    await tests.inspect.del('uas:users');
    await tests.inspect.rpush('uas:users', JSON.stringify([{ email: 'new@example.com' }]));
    await tests.inspect.client('KILL', 'TYPE', 'pubsub');
    for (const instance of [a, b]) await eventually(knows(instance, 'new@example.com'));
    // Counted from the list as it is now: a change heard later is applied once, on both.
    await b.addUsers([{ email: 'later@example.com' }]);
    await eventually(knows(a, 'later@example.com'));
    await tests.inspect.client('KILL', 'TYPE', 'pubsub');
    await a.addUsers([{ email: 'last@example.com' }]);
    await eventually(knows(b, 'last@example.com'));
  });

  it('adds a user once the list it was made on is gone (Redis lost it), on every instance', async () => {
    const a = await tests.instance();
    const b = await tests.instance();
    const knows = (instance: typeof a, email: string) => async () =>
      (await instance.resetBuckets()) !== undefined && (await known(instance, email));
    await a.addUsers([{ email: 'first@example.com' }]);
    await eventually(knows(b, 'first@example.com'));
    // Lost without a reconnect: the change is made again on the list as it is now.
    await tests.inspect.del('uas:users');
    expect(await a.addUsers([{ email: 'new@example.com' }])).toEqual({ added: 1, replaced: 0 });
    expect(await tests.inspect.lrange('uas:users', 0, -1)).toEqual([
      JSON.stringify([{ email: 'new@example.com' }]),
    ]);
    await eventually(knows(b, 'new@example.com'));
    await b.addUsers([{ email: 'later@example.com' }]);
    await eventually(knows(a, 'later@example.com'));
  });
});

describe.skipIf(!HAS_REDIS)(
  'a change of users refused on what an instance has not heard yet',
  () => {
    const tests = redisOfTheseTests();

    it('removes a user another instance added a moment ago, and gives a number another gave up', async () => {
      const a = await tests.instance();
      const b = await tests.instance();
      for (let round = 0; round < 10; round++) {
        const email = `dave${round}@example.com`;
        await a.addUsers([{ email, phone_number: '+15550000009' }]);
        // Sent at once: b may not have heard of dave yet, but Redis keeps him.
        expect(await b.removeUser(email)).toEqual({ removed: email, codes: 0 });
        // Nor a of the removal: the number is free all the same.
        expect(
          await a.addUsers([{ email: `erin${round}@example.com`, phone_number: '+15550000009' }]),
        ).toEqual({
          added: 1,
          replaced: 0,
        });
        expect(await b.removeUser(`erin${round}@example.com`)).toMatchObject({
          removed: `erin${round}@example.com`,
        });
      }
    });
  },
);
