import { describe, expect, it } from 'vitest';
import { createDevClient, type DevClientOptions } from './dev-client.js';
import { isDevApiError, type DevApiError } from './dev-api-error.js';

const URL_OF = 'http://127.0.0.1:4010';
const HEALTH = {
  status: 'ok',
  version: '0.1.0',
  started_at: '2026-01-01T00:00:00.000Z',
  uptime_ms: 1500,
};
const CODE = {
  email: 'alice@example.com',
  merchant_id: '6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01',
  code: '123456',
};

/**
 * A body of `total` bytes of `text` repeated (JSON when `text` is), handed out 16 KiB a pull:
 * `pulled.bytes` says how much of it the client read.
 */
function body(total: number, text = 'x') {
  const pulled = { bytes: 0 };
  const chunk = new TextEncoder().encode(text.repeat(Math.ceil(16_384 / text.length)));
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= total) return controller.close();
      const part = chunk.subarray(0, Math.min(chunk.length, total - pulled.bytes));
      pulled.bytes += part.length;
      controller.enqueue(part);
    },
  });
  return { stream, pulled };
}

/** A dev client whose every call is answered with `answer()`. */
function clientAnswering(answer: () => Response, options: DevClientOptions = {}) {
  return createDevClient(URL_OF, { ...options, fetch: async () => answer() });
}

const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

/** The DevApiError a call fails with; anything else fails the test. */
async function failure(promise: Promise<unknown>): Promise<DevApiError> {
  try {
    await promise;
  } catch (error) {
    if (isDevApiError(error)) return error;
    throw error;
  }
  throw new Error('expected a DevApiError; the call succeeded');
}

describe('createDevClient(url)', () => {
  it.each([
    ['not a url', /got "not a url": not an absolute URL/],
    ['', /got "": it is empty/],
    ['127.0.0.1:4010', /got "127\.0\.0\.1:4010": not an absolute URL/],
    ['localhost:4010', /got "localhost:4010": its scheme is localhost:/],
    ['ftp://127.0.0.1:4010', /got "ftp:\/\/127\.0\.0\.1:4010": its scheme is ftp:/],
    ['file:///tmp/uas', /its scheme is file:/],
    ['http://127.0.0.1:4010/?x=1', /it has a query/],
  ])('refuses %j with a TypeError naming the value and what is expected', (url, why) => {
    const make = () => createDevClient(url);
    expect(make).toThrow(TypeError);
    expect(make).toThrow(why);
    expect(make).toThrow(/createDevClient: url must be an absolute http: or https: URL/);
  });

  it('refuses a URL with credentials, and does not repeat the password', () => {
    const make = () => createDevClient('http://admin:hunter2@127.0.0.1:4010');
    expect(make).toThrow(TypeError);
    expect(make).toThrow(/it has credentials .*give the admin token as adminToken/);
    expect(make).not.toThrow(/hunter2/);
  });

  it('refuses an admin token no Authorization header can carry, without repeating it', () => {
    // `uas serve --admin-token` takes printable ASCII only; fetch refused this one at each call,
    // and the DevApiError said the server could not be reached.
    for (const [adminToken, where] of [
      ['hunter2\nX-Evil: 1', 'character 8 is U+000A'],
      ['hunter2\u2028', 'character 8 is U+2028'],
    ]) {
      const make = () => createDevClient(URL_OF, { adminToken });
      expect(make).toThrow(TypeError);
      expect(make).toThrow(
        `createDevClient: adminToken cannot go in an Authorization header: ${where} (a token is one line of printable ASCII)`,
      );
      expect(make).not.toThrow(/hunter2/);
    }
  });

  it('takes an http(s) URL with a path prefix and a trailing slash', async () => {
    const called: string[] = [];
    const dev = createDevClient('HTTP://LOCALHOST:4010/uas/', {
      fetch: async (input) => {
        called.push(String(input));
        return json(HEALTH);
      },
    });
    expect(dev.url).toBe('http://localhost:4010/uas');
    await dev.health();
    expect(called).toEqual(['http://localhost:4010/uas/__uas/health']);
  });
});

describe('a dev client reading answers', () => {
  it('stops reading an answer as soon as it passes maxResponseBytes, and says so', async () => {
    const { stream, pulled } = body(64 * 1_048_576);
    const dev = clientAnswering(() => new Response(stream), { maxResponseBytes: 100_000 });
    const error = await failure(dev.codes());
    expect(error.failure).toBe('bad-answer');
    expect(error.message).toBe(
      "GET /__uas/codes: the answer's body passed the limit of 100000 bytes; not read further (maxResponseBytes)",
    );
    expect(pulled.bytes).toBeLessThan(200_000);
  });

  it('caps the answer of latestCode as every other', async () => {
    const code = JSON.stringify({ ...CODE, pad: 'x'.repeat(200_000) });
    const dev = clientAnswering(() => new Response(code), { maxResponseBytes: 100_000 });
    const error = await failure(dev.latestCode('alice@example.com'));
    expect(error.failure).toBe('bad-answer');
    expect(error.message).toMatch(/^GET \/__uas\/codes\/alice%40example\.com: .*limit of 100000/);
    expect(await clientAnswering(() => json(CODE)).latestCode('alice@example.com')).toEqual(CODE);
  });

  it('refuses an answer that announces more than 64 MiB by default, without reading it', async () => {
    const { stream, pulled } = body(1024);
    const answer = () =>
      new Response(stream, { headers: { 'content-length': String(64 * 1_048_576 + 1) } });
    const error = await failure(clientAnswering(answer).config());
    expect(error.message).toMatch(/announces 67108865 bytes .*above the limit of 67108864/);
    expect(pulled.bytes).toBeLessThanOrEqual(16_384);
  });

  it('reads no more than 64 KiB of a refusal, and shows its start', async () => {
    const { stream, pulled } = body(32 * 1_048_576, 'Internal error. ');
    const error = await failure(
      clientAnswering(() => new Response(stream, { status: 500 })).reset(),
    );
    expect(error.failure).toBe('refused');
    expect(error.status).toBe(500);
    expect(error.message).toMatch(/^POST \/__uas\/reset: 500 Internal error\. Internal error\./);
    expect(error.detail.length).toBeLessThanOrEqual(200);
    expect(pulled.bytes).toBeLessThan(128 * 1024);
  });

  it('reads no more than 64 KiB of a 404 before saying it is not the dev API', async () => {
    const { stream, pulled } = body(32 * 1_048_576);
    const dev = clientAnswering(() => new Response(stream, { status: 404 }));
    const error = await failure(dev.latestCode('nobody@example.com'));
    expect(error.failure).toBe('unavailable');
    expect(pulled.bytes).toBeLessThan(128 * 1024);
  });

  it('refuses an empty e-mail or bucket key with a TypeError, sending nothing (its path would be another route)', async () => {
    let sent = 0;
    const dev = clientAnswering(() => {
      sent++;
      return Response.json({});
    });
    await expect(dev.removeUser('')).rejects.toThrow(
      new TypeError('removeUser() takes an e-mail address; got an empty text'),
    );
    await expect(dev.latestCode('')).rejects.toThrow(
      new TypeError('latestCode() takes an e-mail address; got an empty text'),
    );
    await expect(dev.resetBuckets('')).rejects.toThrow(
      new TypeError('resetBuckets() takes a bucket key; got an empty text'),
    );
    await expect(dev.bucket('')).rejects.toThrow(
      new TypeError('bucket() takes a bucket key; got an empty text'),
    );
    await expect(dev.removeUser('..')).rejects.toThrow(
      new TypeError('removeUser() takes an e-mail address; got ".."'),
    );
    await expect(dev.bucket('.')).rejects.toThrow(TypeError);
    // A lone surrogate has no UTF-8: it is no URIError from deep inside.
    await expect(dev.removeUser('a\uDC00@example.com')).rejects.toThrow(TypeError);
    expect(sent).toBe(0);
  });

  it("says there is no code, or bucket, only on the dev API's own 404", async () => {
    const none = (kind: string) => () =>
      Response.json({ type: `urn:uas:problem:${kind}`, status: 404 }, { status: 404 });
    expect(
      await clientAnswering(none('code-not-found')).latestCode('a@example.com'),
    ).toBeUndefined();
    expect(await clientAnswering(none('bucket-not-found')).bucket('client:demo')).toBeUndefined();
    // A server without a dev API (its own 404 page, another problem) is not "no code".
    for (const answer of [
      () => new Response('<h1>Not Found</h1>', { status: 404 }),
      none('not-found'),
      none('bucket-not-found'),
    ]) {
      const error = await failure(clientAnswering(answer).latestCode('a@example.com'));
      expect(error.message).toMatch(
        /^GET \/__uas\/codes\/a%40example\.com: not a uas dev API: the answer is not its code-not-found problem/,
      );
    }
  });

  it.each([0, -1, 1.5, Number.NaN, 2 ** 31, 1e12])(
    'refuses timeoutMs: %s with a RangeError, where each call failed as a network error',
    (timeoutMs) => {
      expect(() => createDevClient(URL_OF, { timeoutMs })).toThrow(
        new RangeError(
          `createDevClient: timeoutMs must be a whole number from 1 to 2147483647 ms (about 24.8 days, the longest a timer can hold); got ${timeoutMs}`,
        ),
      );
    },
  );

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses maxResponseBytes: %s with a TypeError',
    (maxResponseBytes) => {
      expect(() => createDevClient(URL_OF, { maxResponseBytes })).toThrow(
        new RegExp(
          `maxResponseBytes must be a whole number of bytes above 0; got ${maxResponseBytes}`,
        ),
      );
    },
  );
});

describe('health()', () => {
  it('returns what a uas dev API says', async () => {
    expect(await clientAnswering(() => json(HEALTH)).health()).toEqual(HEALTH);
    expect(await clientAnswering(() => json({ status: 'ok' })).health()).toEqual({ status: 'ok' });
  });

  it.each([
    ['another JSON shape', { ok: true }],
    ['a status other than ok', { ...HEALTH, status: 'degraded' }],
    ['a version that is not text', { ...HEALTH, version: 1 }],
    ['a start that is not a time', { ...HEALTH, started_at: 'yesterday' }],
    ['an uptime that is not a number', { ...HEALTH, uptime_ms: '1500' }],
    ['an array', [HEALTH]],
    ['null', null],
  ])('says a server is not a uas dev API when it answers %s', async (_, answer) => {
    const error = await failure(clientAnswering(() => json(answer)).health());
    expect(error.failure).toBe('unavailable');
    expect(error.status).toBe(200);
    expect(error.message).toMatch(
      /^GET \/__uas\/health: not a uas dev API: its answer is not \{ status: "ok", version, started_at, uptime_ms \}; got [[{n]/,
    );
  });

  it('says a server is not a uas dev API when it answers a page that is not JSON', async () => {
    const page = () => new Response('<!doctype html><title>Shop</title>', { status: 200 });
    const error = await failure(clientAnswering(page).health());
    expect(error.failure).toBe('unavailable');
    expect(error.message).toBe(
      'GET /__uas/health: not a uas dev API: its answer is not JSON; got <!doctype html><title>Shop</title>',
    );
  });
});

describe('requests() and requestLog()', () => {
  /** A journal of `total` requests served in pages of at most `page`, as GET /__uas/requests does. */
  function pagedJournal(total: number, page: number, dropped = 0) {
    const asked: string[] = [];
    const fetch = async (input: string | URL | Request) => {
      const url = new URL(String(input));
      asked.push(`${url.pathname}${url.search}`);
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 100_000), page);
      const after = Number(url.searchParams.get('after_id') ?? 0);
      const ids = Array.from({ length: total }, (_, index) => index + 1).filter((id) => id > after);
      const requests = ids.slice(0, limit).map((id) => ({ id }));
      const more = ids.length > limit;
      return json({ requests, dropped, next_after_id: more ? requests.at(-1)!.id : null });
    };
    return { client: createDevClient(URL_OF, { fetch }), asked };
  }

  it('reads every page of the journal, each after the last id of the one before', async () => {
    const { client, asked } = pagedJournal(25, 10, 3);
    const log = await client.requestLog({ operation: 'start' });
    expect(log.requests.map((record) => record.id)).toEqual(
      Array.from({ length: 25 }, (_, index) => index + 1),
    );
    expect(log.dropped).toBe(3);
    expect(asked).toHaveLength(3);
    expect(asked[1]).toMatch(/^\/__uas\/requests\?operation=start&limit=\d+&after_id=10$/);
    expect((await client.requests({ afterId: 20 })).map((record) => record.id)).toEqual([
      21, 22, 23, 24, 25,
    ]);
  });

  it('refuses a page of users with a field it does not take, sending nothing', async () => {
    const { client, asked } = pagedJournal(5, 10);
    await expect(client.users({ limt: 5 } as never)).rejects.toThrow(/limt: unknown field/);
    await expect(client.users({ email: 5 } as never)).rejects.toThrow(/email: /);
    expect(asked).toEqual([]);
  });

  it('refuses a filter field it does not take, sending nothing, as the emulator in process does', async () => {
    const { client, asked } = pagedJournal(5, 10);
    await expect(client.requests({ opertion: 'start' } as never)).rejects.toThrow(
      /opertion: unknown field \(did you mean "operation"\?\)/,
    );
    await expect(client.requestLog({ status: '200' } as never)).rejects.toThrow(
      /status: expected a number; got "200"/,
    );
    expect(asked).toEqual([]);
  });

  it('refuses a server whose next page would not move forward, rather than asking forever', async () => {
    for (const [requests, next] of [
      [[{ id: 5 }], 5],
      [[{ id: 9 }], 10],
      [[], 6],
    ] as const) {
      const client = clientAnswering(() => json({ requests, dropped: 0, next_after_id: next }));
      const error = await failure(client.requests({ afterId: 5 }));
      expect(error.failure).toBe('bad-answer');
      expect(error.message).toContain(
        `next_after_id ${next} is not the id of the last request of the page, past 5`,
      );
    }
  });
});

describe('buckets()', () => {
  it('asks for the page after a key, the next_after of the page before', async () => {
    const asked: string[] = [];
    const page = { total: 0, offset: 0, next_offset: null, next_after: null, buckets: [] };
    const client = createDevClient(URL_OF, {
      fetch: async (input) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        asked.push(url.pathname + url.search);
        return Response.json(page);
      },
    });
    await client.buckets({ sort: 'key', limit: 2, after: 'caller:demo:c 1' });
    expect(asked).toEqual(['/__uas/buckets?sort=key&limit=2&after=caller%3Ademo%3Ac+1']);
  });
});
