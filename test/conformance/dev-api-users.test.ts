import { afterEach, describe, expect, it } from 'vitest';
import { createApi } from '../helpers/api.js';
import { useTransports, type AnyTarget } from '../helpers/targets.js';

const TRANSPORTS = useTransports();
const ALICE = 'email=alice%40example.com';

/** `POST /__uas/users` with these users, and `exists` by phone number, over one API. */
function usersOf(api: ReturnType<typeof createApi>) {
  return {
    post: (users: unknown[]) =>
      api.dev('/users', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ users }),
      }),
    byPhone: async (phone: string) =>
      (await api.exists(`phone_number=${encodeURIComponent(phone)}`)).body,
  };
}

describe.each(TRANSPORTS)('the users of the dev API over $name', (transport) => {
  let target: AnyTarget | undefined;
  const start = async () => {
    target = await transport.start();
    return { target, api: createApi(target.baseUrl) };
  };
  afterEach(async () => {
    await target?.close();
    target = undefined;
  });

  it('adds users, and refuses invalid ones without adding any', async () => {
    const { api } = await start();
    expect((await api.exists('email=dave%40example.com')).body.exists).toBe(false);
    const post = (body: unknown) =>
      api.dev('/users', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post({ users: [{ email: 'dave@example.com', token_count: 3 }] })).body).toEqual({
      added: 1,
      replaced: 0,
    });
    expect((await api.exists('email=dave%40example.com')).body).toEqual({
      exists: true,
      token_count: 3,
    });
    const refused = await post({
      users: [{ email: 'erin@example.com' }, { email: 'not-an-email' }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain('[1].email');
    expect((await api.exists('email=erin%40example.com')).body.exists).toBe(false);
    // A field beside users is a mistake too, told as its users' own unknown fields are.
    const misspelt = await post({ users: [{ email: 'erin@example.com' }], replace: true });
    expect(misspelt.status).toBe(400);
    expect(misspelt.body.errors).toEqual([
      { detail: 'unknown field "replace": the body has users only', pointer: '#/replace' },
    ]);
    expect((await api.exists('email=erin%40example.com')).body.exists).toBe(false);
  });

  it("gives a phone number to one user: refuses another's, and moves a user's own with it", async () => {
    const { api } = await start();
    const { post, byPhone } = usersOf(api);
    // Alice's number (the bundled config's), taken by another user: refused, nothing added.
    const taken = await post([
      { email: 'dave@example.com' },
      { email: 'erin@example.com', phone_number: '+14155550101' },
    ]);
    expect(taken.status).toBe(400);
    expect(taken.body.detail).toContain("[1].phone_number: +14155550101 is alice@example.com's");
    expect((await api.exists('email=dave%40example.com')).body.exists).toBe(false);
    expect(await byPhone('+14155550101')).toEqual({ exists: true, token_count: 2 });
    // Alice given a new number: the old one no longer finds her.
    expect(
      (await post([{ email: 'alice@example.com', phone_number: '+14155550199', token_count: 4 }]))
        .body,
    ).toEqual({ added: 0, replaced: 1 });
    expect(await byPhone('+14155550101')).toEqual({ exists: false, token_count: 0 });
    expect(await byPhone('+14155550199')).toEqual({ exists: true, token_count: 4 });
    // One user twice in a batch (its e-mail in another case): refused, as in the config file.
    const twice = await post([{ email: 'gil@example.com' }, { email: 'GIL@example.com' }]);
    expect(twice.status).toBe(400);
    expect(twice.body.detail).toContain('[1].email: "GIL@example.com" appears twice');
    expect((await api.exists('email=gil%40example.com')).body.exists).toBe(false);
    // Now free, the old number can be another user's.
    expect((await post([{ email: 'erin@example.com', phone_number: '+14155550101' }])).status).toBe(
      200,
    );
  });

  it("swaps two users' phone numbers in one body, and lets a user given again without one give it up", async () => {
    const { api } = await start();
    const { post, byPhone } = usersOf(api);
    // Alice has +14155550101 (2 tokens), Carol +447700900123 (1 token): swapped at once.
    const swapped = await post([
      { email: 'alice@example.com', phone_number: '+447700900123', token_count: 2 },
      { email: 'carol@example.com', phone_number: '+14155550101', token_count: 1 },
    ]);
    expect(swapped.body).toEqual({ added: 0, replaced: 2 });
    expect(await byPhone('+447700900123')).toEqual({ exists: true, token_count: 2 });
    expect(await byPhone('+14155550101')).toEqual({ exists: true, token_count: 1 });
    // Dave takes Carol's new number, which Carol, given again without one, gives up.
    expect(
      (
        await post([
          { email: 'dave@example.com', phone_number: '+14155550101', token_count: 5 },
          { email: 'carol@example.com', token_count: 1 },
        ])
      ).body,
    ).toEqual({ added: 1, replaced: 1 });
    expect(await byPhone('+14155550101')).toEqual({ exists: true, token_count: 5 });
    // Still one number, one user: taking one whose owner is not given again is refused.
    const taken = await post([{ email: 'erin@example.com', phone_number: '+447700900123' }]);
    expect(taken.status).toBe(400);
    expect(taken.body.detail).toContain("+447700900123 is alice@example.com's");
  });

  it('removes a user: exists says false, start answers user-not-found, and its pending code no longer verifies', async () => {
    const { api } = await start();
    await api.start({ email: 'alice@example.com' });
    const { code } = (await api.dev('/codes/alice%40example.com')).body as { code: string };
    const remove = (email: string) =>
      api.dev(`/users/${email}`, {
        method: 'DELETE',
        headers: { 'content-type': 'application/json' },
      });
    const removed = await remove('ALICE%40example.com');
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ removed: 'alice@example.com', codes: 1 });
    expect((await api.exists(ALICE)).body).toEqual({ exists: false, token_count: 0 });
    expect((await api.dev('/codes/alice%40example.com')).status).toBe(404);
    const verify = await api.verify({ email: 'alice@example.com', verification_code: code });
    expect(verify.status).toBe(404);
    expect(verify.body.type).toBe('urn:uas:problem:code-not-found');
    const started = await api.start({ email: 'alice@example.com' });
    expect(started.status).toBe(404);
    expect(started.body.type).toBe('urn:uas:problem:user-not-found');
    // Added again, the user starts afresh: the old code is gone for good.
    await api.dev('/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ users: [{ email: 'alice@example.com' }] }),
    });
    const again = await api.verify({ email: 'alice@example.com', verification_code: code });
    expect(again.body.type).toBe('urn:uas:problem:code-not-found');
  });

  it('refuses to remove an unknown user (404), a bad e-mail (400) and a body too large (413), changing nothing', async () => {
    const { api } = await start();
    const remove = (email: string, body?: string) =>
      api.dev(`/users/${email}`, {
        method: 'DELETE',
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body }),
      });
    const unknown = await remove('nobody%40example.com');
    expect(unknown.status).toBe(404);
    expect(unknown.body.type).toBe('urn:uas:problem:user-not-found');
    expect(unknown.body.detail).toBe(
      'no user has the e-mail "nobody@example.com", among those of the config and those added live',
    );
    const bad = await remove('not-an-email');
    expect(bad.status).toBe(400);
    expect(bad.body.type).toBe('urn:uas:problem:invalid-request');
    expect(bad.body.errors).toEqual([{ detail: 'expected an e-mail address', pointer: '#/email' }]);
    const long = await remove(`${'a'.repeat(300)}%40example.com`);
    expect(long.status).toBe(400);
    const huge = await remove('alice%40example.com', 'x'.repeat(17 * 1_048_576));
    expect(huge.status).toBe(413);
    expect(huge.headers.get('content-type')).toBe('application/problem+json');
    expect((await api.exists(ALICE)).body.exists).toBe(true);
  });

  it('takes 100,000 users in one body, and answers 413 (not a truncated 400) past 16 MiB', async () => {
    const { api } = await start();
    const users = Array.from({ length: 100_000 }, (_, index) => ({
      email: `shopper-${index}@example.com`,
    }));
    const post = (body: string) =>
      api.dev('/users', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    expect((await post(JSON.stringify({ users }))).body).toEqual({ added: 100_000, replaced: 0 });
    expect((await post(JSON.stringify({ users }))).body).toEqual({ added: 0, replaced: 100_000 });
    expect((await api.exists('email=shopper-99999%40example.com')).body.exists).toBe(true);
    const tooLarge = await post(JSON.stringify({ users, padding: 'x'.repeat(17 * 1_048_576) }));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.type).toBe('urn:uas:problem:payload-too-large');
  });
});
