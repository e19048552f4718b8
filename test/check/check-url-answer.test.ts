import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { recordMaker } from '../helpers/check-records.js';
import { runCli } from '../helpers/run-cli.js';

let server: Server | undefined;
afterEach(async () => {
  const open = server;
  server = undefined;
  if (open !== undefined) await new Promise((resolve) => open.close(resolve));
});

/** A stand-in dev API that answers every request with `body`; returns its URL. */
async function answering(body: string): Promise<string> {
  const stand = createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(body);
  });
  server = stand;
  await new Promise<void>((resolve) => stand.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(stand.address() as { port: number }).port}`;
}

const RECORD = recordMaker()({ at: 0, email: 'ann@example.com', callerId: '203.0.113.7' });

describe('uas check --url: the answer of the dev API is not trusted', () => {
  it.each([
    ['1e308', '1e+308'],
    // Past a double: JSON reads it as Infinity, which JSON.stringify would write null.
    ['1e400', 'Infinity'],
    ['-5', '-5'],
    ['2.5', '2.5'],
    ['"3"', '"3"'],
  ])('refuses a dropped of %s in one line, exit 1, judging nothing', async (dropped, shown) => {
    const url = await answering(
      `{"requests":[${JSON.stringify(RECORD)}],"dropped":${dropped},"next_after_id":null}`,
    );
    const result = await runCli(['check', '--url', url, '--json']);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `uas: the emulator at ${url} answered something that is not a journal (dropped: ${shown}, not a count of requests)\n`,
    });
  });

  it('refuses an answer that holds no list of requests in one line, exit 1', async () => {
    const url = await answering('{"hello":"world"}');
    const result = await runCli(['check', '--url', url]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^uas: [^\n]*\n$/);
  });
});

describe('uas check --url: a dev API that needs an admin token', () => {
  it.each([
    [[], 'the dev API needs an admin token: pass --admin-token or set UAS_ADMIN_TOKEN'],
    [
      ['--admin-token', 'wrong-token'],
      'the dev API refused the admin token: check --admin-token or UAS_ADMIN_TOKEN',
    ],
  ])('says so in the words of the CLI (%j), exit 2', async (flags, said) => {
    const stand = createServer((_request, response) => {
      response.statusCode = 401;
      response.setHeader('content-type', 'application/problem+json');
      response.end(
        JSON.stringify({
          type: 'urn:uas:problem:admin-token-required',
          title: 'The dev API needs the admin token',
          status: 401,
          detail: 'send Authorization: Bearer <admin token>',
        }),
      );
    });
    server = stand;
    await new Promise<void>((resolve) => stand.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(stand.address() as { port: number }).port}`;
    const result = await runCli(['check', '--url', url, ...flags]);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `uas: GET /__uas/requests?limit=10000: ${said}\n`,
    });
  });
});
