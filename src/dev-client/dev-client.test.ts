import { describe, expect, it } from 'vitest';
import { createDevClient } from './dev-client.js';

const HEALTH = {
  status: 'ok',
  version: '0.1.0',
  started_at: '2026-01-01T00:00:00.000Z',
  uptime_ms: 1500,
};

const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

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
