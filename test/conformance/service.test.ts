import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_MERCHANT, OTHER_MERCHANT, OTHER_TOKEN } from '../../src/demo-config.js';
import { createApi } from '../helpers/api.js';
import { useTransports, type AnyTarget } from '../helpers/targets.js';

const TRANSPORTS = useTransports();

const ALICE = 'email=alice%40example.com';

describe.each(TRANSPORTS)('the service over $name', (transport) => {
  let target: AnyTarget;
  let api: ReturnType<typeof createApi>;
  beforeEach(async () => {
    target = await transport.start();
    api = createApi(target.baseUrl);
  });
  afterEach(async () => {
    await target.close();
  });

  describe('exists', () => {
    it('answers exists and token_count for a known e-mail', async () => {
      const reply = await api.exists(ALICE);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('application/json');
      expect(reply.body).toEqual({ exists: true, token_count: 2 });
    });

    it('answers exists false for an unknown e-mail and true for a known phone number', async () => {
      expect((await api.exists('email=nobody%40example.com')).body).toEqual({
        exists: false,
        token_count: 0,
      });
      expect((await api.exists('phone_number=%2B14155550101')).body).toEqual({
        exists: true,
        token_count: 2,
      });
    });

    it('rejects a query with neither or both of email and phone_number', async () => {
      const neither = await api.exists('');
      expect(neither.status).toBe(400);
      expect(neither.headers.get('content-type')).toBe('application/problem+json');
      expect(neither.body.detail).toContain('exactly one of email or phone_number');
      const both = await api.exists(`${ALICE}&phone_number=%2B14155550101`);
      expect(both.status).toBe(400);
    });

    it('rejects a parameter given twice, naming it', async () => {
      const reply = await api.exists(`${ALICE}&${ALICE}`);
      expect(reply.status).toBe(400);
      expect(reply.body.type).toBe('urn:uas:problem:duplicate-parameter');
      expect(reply.body.errors).toEqual([
        expect.objectContaining({ parameter: 'email', pointer: '#/email' }),
      ]);
    });

    it('rejects an empty or overlong caller_id with a field error', async () => {
      const empty = await api.exists(`${ALICE}&caller_id=`);
      expect(empty.status).toBe(400);
      expect(empty.body.errors).toEqual([
        expect.objectContaining({ pointer: '#/caller_id', detail: 'caller_id must not be empty' }),
      ]);
      const long = await api.exists(`${ALICE}&caller_id=${'x'.repeat(257)}`);
      expect(long.status).toBe(400);
      expect(String(long.body.detail)).toContain('at most 256 characters');
    });
  });

  describe('authentication', () => {
    it('answers 401 with a Bearer challenge when the Authorization header is missing', async () => {
      const reply = await api.exists(ALICE, { token: null });
      expect(reply.status).toBe(401);
      expect(reply.headers.get('www-authenticate')).toBe('Bearer realm="uas"');
      expect(reply.headers.get('uas-bucket')).toBeNull();
      expect(reply.body.type).toBe('urn:uas:problem:unauthorized');
    });

    it('answers 401 invalid_request for a malformed header and invalid_token for an unknown token', async () => {
      const malformed = await api.exists(ALICE, {
        token: null,
        headers: { authorization: 'Basic abc' },
      });
      expect(malformed.status).toBe(401);
      expect(malformed.headers.get('www-authenticate')).toContain('error="invalid_request"');
      const unknown = await api.exists(ALICE, { token: 'not-a-known-token' });
      expect(unknown.status).toBe(401);
      expect(unknown.headers.get('www-authenticate')).toContain('error="invalid_token"');
    });

    it('charges no bucket for a 401', async () => {
      await api.exists(ALICE, { token: 'not-a-known-token' });
      expect((await target.emulator.listBuckets()).total).toBe(0);
    });
  });

  describe('routing', () => {
    it('answers an unknown path with a 404 problem', async () => {
      const reply = await api.dev('/../../v2/nothing'.replace('/../..', ''));
      expect(reply.status).toBe(404);
      const other = await createApi(target.baseUrl)
        .exists('')
        .then(() => fetch(`${target.baseUrl}/v1/users/nothing`));
      expect(other.status).toBe(404);
      expect(other.headers.get('content-type')).toBe('application/problem+json');
    });

    it('answers a wrong method with 405 and Allow', async () => {
      const reply = await fetch(`${target.baseUrl}/v1/users/exists?${ALICE}`, { method: 'POST' });
      expect(reply.status).toBe(405);
      expect(reply.headers.get('allow')).toBe('GET');
      const start = await fetch(
        `${target.baseUrl}/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`,
        { method: 'GET' },
      );
      expect(start.status).toBe(405);
      expect(start.headers.get('allow')).toBe('POST');
    });
  });

  describe('passwordless start', () => {
    it('issues a code without revealing it', async () => {
      const reply = await api.start({ email: 'alice@example.com' });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ sent: true, expires_in: 600, attempts_allowed: 5 });
      const code = await target.emulator.latestCode('alice@example.com');
      expect(code?.code).toMatch(/^\d{6}$/);
      expect(reply.text).not.toContain(code?.code);
    });

    it('answers 415 without a JSON content type, 400 for malformed JSON, 413 for a large body', async () => {
      const noType = await api.start('{"email":"alice@example.com"}', {
        headers: { 'content-type': 'text/plain' },
      });
      expect(noType.status).toBe(415);
      const malformed = await api.start('{"email":');
      expect(malformed.status).toBe(400);
      expect(malformed.body.type).toBe('urn:uas:problem:malformed-json');
      const large = await api.start({ email: 'alice@example.com', padding: 'x'.repeat(20_000) });
      expect(large.status).toBe(413);
      expect(await target.emulator.listCodes()).toEqual([]);
    });

    it('names each invalid field with a JSON pointer', async () => {
      const reply = await api.start({ email: 42, caller_id: '' });
      expect(reply.status).toBe(400);
      expect(reply.body.errors).toEqual([
        { detail: 'email must be a string', pointer: '#/email' },
        { detail: 'caller_id must not be empty', pointer: '#/caller_id' },
      ]);
    });

    it("answers 404 for an unknown user or merchant and 403 for another client's merchant", async () => {
      expect((await api.start({ email: 'nobody@example.com' })).body.type).toBe(
        'urn:uas:problem:user-not-found',
      );
      const unknown = await api.start(
        { email: 'alice@example.com' },
        { merchant: '00000000-0000-4000-8000-000000000000' },
      );
      expect(unknown.status).toBe(404);
      expect(unknown.body.type).toBe('urn:uas:problem:merchant-not-found');
      const foreign = await api.start({ email: 'alice@example.com' }, { merchant: OTHER_MERCHANT });
      expect(foreign.status).toBe(403);
      const own = await api.start(
        { email: 'alice@example.com' },
        { merchant: OTHER_MERCHANT, token: OTHER_TOKEN },
      );
      expect(own.status).toBe(200);
    });
  });

  describe('passwordless verify', () => {
    const startAndRead = async () => {
      await api.start({ email: 'alice@example.com' });
      return (await target.emulator.latestCode('alice@example.com', DEMO_MERCHANT))?.code as string;
    };
    const wrongOf = (code: string) => (code === '000000' ? '111111' : '000000');

    it('signs in once with the right code, then says the code was used', async () => {
      const code = await startAndRead();
      const first = await api.verify({ email: 'alice@example.com', verification_code: code });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ verified: true, email: 'alice@example.com' });
      const again = await api.verify({ email: 'alice@example.com', verification_code: code });
      expect(again.status).toBe(409);
      expect(again.body.type).toBe('urn:uas:problem:code-used');
    });

    it('counts down wrong attempts, then kills the code', async () => {
      const code = await startAndRead();
      for (let left = 4; left >= 0; left--) {
        const wrong = await api.verify(
          { email: 'alice@example.com', verification_code: wrongOf(code) },
          { headers: {} },
        );
        expect(wrong.status).toBe(422);
        expect(wrong.body.attempts_remaining).toBe(left);
        if (left > 0)
          expect(wrong.body.detail).toBe(
            `the code is wrong; ${left} ${left === 1 ? 'attempt remains' : 'attempts remain'}`,
          );
        target.clock.advance(1000);
      }
      const right = await api.verify({ email: 'alice@example.com', verification_code: code });
      expect(right.status).toBe(403);
      expect(right.body.type).toBe('urn:uas:problem:code-attempts-exhausted');
    });

    it('refuses an expired code and a verify without start', async () => {
      const code = await startAndRead();
      target.clock.advance(10 * 60 * 1000);
      const expired = await api.verify({ email: 'alice@example.com', verification_code: code });
      expect(expired.status).toBe(410);
      const none = await api.verify({ email: 'bob@example.com', verification_code: '123456' });
      expect(none.status).toBe(404);
      expect(none.body.type).toBe('urn:uas:problem:code-not-found');
    });

    it('replaces an earlier code on a new start', async () => {
      const first = await startAndRead();
      target.clock.advance(1000);
      const second = await startAndRead();
      if (first !== second) {
        expect(
          (await api.verify({ email: 'alice@example.com', verification_code: first })).status,
        ).toBe(422);
      }
      expect(
        (await api.verify({ email: 'alice@example.com', verification_code: second })).status,
      ).toBe(200);
    });
  });

  describe('rate limiting', () => {
    it('rejects the sixth request of a caller whose bucket holds five tokens, with Retry-After and a quota problem', async () => {
      for (let index = 0; index < 5; index++) {
        const reply = await api.exists(`${ALICE}&caller_id=203.0.113.7`);
        expect(reply.status).toBe(200);
        expect(reply.headers.get('ratelimit')).toBe(`"caller";r=${4 - index};t=1`);
      }
      const limited = await api.exists(`${ALICE}&caller_id=203.0.113.7`);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('1');
      expect(limited.headers.get('cache-control')).toBe('no-store');
      expect(limited.headers.get('ratelimit-policy')).toBe('"caller";q=5;w=5');
      expect(limited.headers.get('uas-bucket')).toBe('caller:demo:203.0.113.7');
      expect(limited.body).toMatchObject({
        type: 'https://iana.org/assignments/http-problem-types#quota-exceeded',
        status: 429,
        'violated-policies': ['caller'],
        bucket: 'caller:demo:203.0.113.7',
        retry_after: 1,
      });
    });

    it('lets the caller in again once Retry-After has passed', async () => {
      for (let index = 0; index < 5; index++) await api.exists(`${ALICE}&caller_id=c1`);
      const limited = await api.exists(`${ALICE}&caller_id=c1`);
      target.clock.advance(Number(limited.headers.get('retry-after')) * 1000);
      expect((await api.exists(`${ALICE}&caller_id=c1`)).status).toBe(200);
    });

    it('keeps caller buckets and the client bucket independent', async () => {
      for (let index = 0; index < 5; index++) await api.exists(`${ALICE}&caller_id=bot`);
      expect((await api.exists(`${ALICE}&caller_id=bot`)).status).toBe(429);
      expect((await api.exists(`${ALICE}&caller_id=shopper`)).status).toBe(200);
      expect((await api.exists(ALICE)).headers.get('ratelimit')).toBe('"client";r=19;t=1');
      for (let index = 0; index < 19; index++) await api.exists(ALICE);
      const clientLimited = await api.exists(ALICE);
      expect(clientLimited.status).toBe(429);
      expect(clientLimited.body['violated-policies']).toEqual(['client']);
      expect((await api.exists(`${ALICE}&caller_id=another-shopper`)).status).toBe(200);
    });

    it('shares one bucket between the three operations', async () => {
      await api.exists(`${ALICE}&caller_id=mixed`);
      await api.start({ email: 'alice@example.com', caller_id: 'mixed' });
      const verify = await api.verify({
        email: 'alice@example.com',
        verification_code: '1',
        caller_id: 'mixed',
      });
      expect(verify.headers.get('ratelimit')).toBe('"caller";r=2;t=1');
    });

    it('does not charge a bucket for an invalid request', async () => {
      await api.exists(`${ALICE}&caller_id=careful`);
      const invalid = await api.start({ email: 'not-an-email', caller_id: 'careful' });
      expect(invalid.status).toBe(400);
      expect(invalid.headers.get('ratelimit')).toBe('"caller";r=4;t=1');
      expect((await target.emulator.getBucket('caller:demo:careful'))?.allowed).toBe(1);
    });

    it('scopes caller buckets to the client', async () => {
      for (let index = 0; index < 5; index++) await api.exists(`${ALICE}&caller_id=shared-ip`);
      expect((await api.exists(`${ALICE}&caller_id=shared-ip`)).status).toBe(429);
      const other = await createApi(target.baseUrl, OTHER_TOKEN).exists(
        `${ALICE}&caller_id=shared-ip`,
      );
      expect(other.status).toBe(200);
      expect(other.headers.get('uas-bucket')).toBe('caller:other:shared-ip');
    });
  });
});
