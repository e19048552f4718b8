import { afterEach, describe, expect, it } from 'vitest';
import { QUOTA_EXCEEDED_TYPE } from '../../src/core/service/problems.js';
import { DEMO_TOKEN } from '../../src/demo-config.js';
import {
  checksOf,
  conformInProcess,
  startDriftServer,
  type DriftServer,
  type Drift,
} from './conform-helpers.js';

/**
 * `uas conform` against servers that depart from the contract in one respect each: it must name
 * the check and the difference, and nothing else.
 */
describe('uas conform against a server that drifts', () => {
  let server: DriftServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const run = async (drift: Drift, extra: string[] = []) => {
    server = await startDriftServer(drift);
    return conformInProcess(['--url', server.url, '--json', '--dev-api', ...extra], server.clock);
  };

  /** The checks that failed, with their differences. */
  const failures = (checks: ReturnType<typeof checksOf>) =>
    Object.fromEntries(
      Object.entries(checks)
        .filter(([, check]) => check.result === 'fail')
        .map(([id, check]) => [id, check.differences]),
    );

  it('passes every check against the emulator itself, unchanged', async () => {
    const result = await run({}, ['--exhaust']);
    expect(result.code).toBe(0);
    const checks = checksOf(result);
    expect(Object.values(checks).map((check) => check.result)).toEqual(Array(14).fill('pass'));
    expect(server?.received()).toBe(19);
  });

  it('names the missing Retry-After of a 429, and skips the wait that needs it', async () => {
    const result = await run(
      {
        answer(answer) {
          if (answer.status === 429) delete answer.headers['retry-after'];
          return answer;
        },
      },
      ['--exhaust'],
    );
    expect(result.code).toBe(1);
    const checks = checksOf(result);
    expect(failures(checks)).toEqual({
      'limit.caller-exhausted': ['header Retry-After is missing'],
    });
    expect(checks['limit.retry-after-honoured']).toMatchObject({
      result: 'skip',
      reason: 'the 429 had no readable Retry-After (none)',
    });
  });

  it('names errors that are not problem+json', async () => {
    const result = await run({
      answer(answer) {
        if (answer.status < 400) return answer;
        const problem = JSON.parse(answer.body) as { title: string };
        return {
          ...answer,
          headers: { ...answer.headers, 'content-type': 'application/json' },
          body: JSON.stringify({ error: problem.title }),
        };
      },
    });
    expect(result.code).toBe(1);
    const notProblem = ['content type "application/json" is not application/problem+json'];
    expect(failures(checksOf(result))).toEqual({
      'auth.required': notProblem,
      'auth.invalid-token': notProblem,
      'exists.invalid-email': notProblem,
      'start.invalid-email': notProblem,
      'verify.wrong-code': notProblem,
    });
  });

  it('names a server that ignores caller_id: one bucket for every caller, and no 429 spared', async () => {
    const strip = (text: string) =>
      text.replace(/([?&])caller_id=[^&]*&?/, '$1').replace(/[?&]$/, '');
    const result = await run(
      {
        request(request) {
          const body =
            request.body === undefined
              ? undefined
              : JSON.stringify({ ...(JSON.parse(request.body) as object), caller_id: undefined });
          return { ...request, url: strip(request.url), body };
        },
      },
      ['--exhaust', '--max-requests', '60'],
    );
    expect(result.code).toBe(1);
    const failed = failures(checksOf(result));
    expect(Object.keys(failed).sort()).toEqual([
      'caller.separate-buckets',
      'limit.other-caller-unaffected',
    ]);
    expect(failed['caller.separate-buckets']).toEqual([
      'the first request with a new caller_id uas-conform-r1-d left 14, where the first with uas-conform-r1-a left 19: it was not counted in a fresh bucket of its own (is caller_id ignored?)',
    ]);
    expect(failed['limit.other-caller-unaffected']?.[0]).toMatch(
      /^expected 200, got 429: \{"type":"https:\/\/iana\.org/,
    );
  });

  it('names malformed rate-limit fields, with the value and why', async () => {
    const result = await run({
      answer(answer) {
        if (answer.headers.ratelimit !== undefined)
          answer.headers.ratelimit = answer.headers.ratelimit.replace(';r=', ';r=-');
        if (answer.headers['ratelimit-policy'] !== undefined)
          answer.headers['ratelimit-policy'] = `${answer.headers['ratelimit-policy']},`;
        return answer;
      },
    });
    expect(result.code).toBe(1);
    const failed = failures(checksOf(result));
    expect(Object.keys(failed)).toEqual(['headers.rate-limit']);
    expect(failed['headers.rate-limit']?.[0]).toMatch(
      /^exists 200: RateLimit-Policy "\\"caller\\";q=5;w=5," is not a Structured Field List: /,
    );
    expect(failed['headers.rate-limit']).toContain(
      'exists 200: RateLimit "\\"caller\\";r=-4;t=1": r must be a whole number (got -4)',
    );
    expect(checksOf(result)['caller.separate-buckets']).toMatchObject({ result: 'skip' });
  });

  it('names a server that answers without a token, and one whose answers lack a member', async () => {
    const open = await run({
      request: (request) => ({
        ...request,
        headers: { ...request.headers, authorization: `Bearer ${DEMO_TOKEN}` },
      }),
    });
    expect(failures(checksOf(open))).toEqual({
      'auth.required': ['expected 401, got 200: {"exists":false,"token_count":0}'],
      'auth.invalid-token': ['expected 401, got 200: {"exists":false,"token_count":0}'],
    });
    await server?.close();
    const thin = await run({
      answer(answer, request) {
        if (answer.status !== 200 || !request.url.startsWith('/v1/users/exists')) return answer;
        return { ...answer, body: JSON.stringify({ exists: JSON.parse(answer.body).exists }) };
      },
    });
    const failed = failures(checksOf(thin));
    expect(failed['exists.unknown-user']).toEqual([
      "body must have required property 'token_count'",
    ]);
    expect(failed['exists.known-user']).toEqual(["body must have required property 'token_count'"]);
  });

  it('names a 429 whose body is not the quota-exceeded problem', async () => {
    const result = await run(
      {
        answer(answer) {
          if (answer.status !== 429) return answer;
          const problem = JSON.parse(answer.body) as Record<string, unknown>;
          return {
            ...answer,
            body: JSON.stringify({ ...problem, type: 'about:blank', retry_after: '1' }),
          };
        },
      },
      ['--exhaust'],
    );
    expect(failures(checksOf(result))).toEqual({
      'limit.caller-exhausted': [
        `body/type must be equal to constant (${JSON.stringify(QUOTA_EXCEEDED_TYPE)})`,
        'body/retry_after must be integer,null',
      ],
    });
  });
});

describe('uas conform, safe against a real service', () => {
  let server: DriftServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('sends nothing with --dry-run, and lists every request without the token', async () => {
    server = await startDriftServer();
    const token = 'sandbox-secret-token-123';
    const result = await conformInProcess([
      '--url',
      server.url,
      '--token',
      token,
      '--email',
      'alice@example.com',
      '--merchant-id',
      '6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01',
      '--exhaust',
      '--dry-run',
    ]);
    expect(result.code).toBe(0);
    expect(server.received()).toBe(0);
    expect(result.stdout).not.toContain(token);
    expect(result.stdout).toContain(
      'GET /v1/users/exists?email=uas-conform-r1%40example.com&caller_id=uas-conform-r1-auth\n    no Authorization',
    );
    expect(result.stdout).toContain('Authorization: Bearer <access token>');
    expect(result.stdout).toContain(
      '(until a 429: at most the quota its first answer states, plus one)',
    );
    expect(result.stdout).toContain('verify.signs-in: ');
    expect(result.stdout).toContain('skipped: needs --dev-api');
    const json = await conformInProcess(['--url', server.url, '--dry-run', '--json', '--exhaust']);
    const plan = JSON.parse(json.stdout) as {
      dry_run: boolean;
      checks: Array<{
        id: string;
        skipped: string | null;
        requests: Array<{ authorization: string | null }>;
      }>;
    };
    expect(plan.dry_run).toBe(true);
    expect(plan.checks.map((check) => [check.id, check.requests.length])).toEqual([
      ['auth.required', 1],
      ['auth.invalid-token', 1],
      ['exists.unknown-user', 1],
      ['exists.known-user', 1],
      ['exists.invalid-email', 1],
      ['start.invalid-email', 1],
      ['start.sends-code', 1],
      ['verify.wrong-code', 1],
      ['verify.signs-in', 0],
      ['caller.separate-buckets', 1],
      ['limit.caller-exhausted', 1],
      ['limit.other-caller-unaffected', 1],
      ['limit.retry-after-honoured', 1],
      ['headers.rate-limit', 0],
    ]);
    expect(plan.checks[2]?.requests[0]?.authorization).toBe('<access token>');
    expect(server.received()).toBe(0);
  });

  it('sends exactly the requests its --dry-run lists, in order', async () => {
    const sent: Array<{ method: string; path: string; authorization: unknown; body: unknown }> = [];
    server = await startDriftServer({
      request(request) {
        const body = request.body === undefined ? null : (JSON.parse(request.body) as unknown);
        const authorization = request.headers.authorization ?? null;
        sent.push({
          method: request.method,
          path: request.url,
          // As the plan shows it.
          authorization:
            authorization === `Bearer ${DEMO_TOKEN}` ? '<access token>' : authorization,
          body,
        });
        return request;
      },
    });
    const args = [
      '--url',
      server.url,
      '--json',
      '--dev-api',
      '--exhaust',
      '--email',
      'alice@example.com',
      '--merchant-id',
      '6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01',
    ];
    const dry = await conformInProcess([...args, '--dry-run'], server.clock);
    const plan = JSON.parse(dry.stdout) as {
      checks: Array<{
        requests: Array<{ method: string; path: string; authorization: unknown; body: unknown }>;
      }>;
    };
    const planned = plan.checks.flatMap((check) =>
      check.requests.map(({ method, path, authorization, body }) => ({
        method,
        path,
        authorization,
        body,
      })),
    );
    const result = await conformInProcess(args, server.clock);
    expect(result.code).toBe(0);
    // A request sent again (until a 429) is listed once; the code is a placeholder in the plan.
    const distinct = sent.filter(
      (request, index) => JSON.stringify(request) !== JSON.stringify(sent[index - 1]),
    );
    const code = (sent.find((request) => request.path.startsWith('/__uas/codes')) &&
      sent.filter((request) => request.path.endsWith('/verify')).at(-1)?.body) as {
      verification_code: string;
    };
    expect(code.verification_code).toMatch(/^\d+$/);
    expect(JSON.stringify(distinct)).toBe(
      JSON.stringify(planned).replace('"<the code>"', JSON.stringify(code.verification_code)),
    );
  });

  it('stays within --max-requests, counting every request, and says which checks it could not afford', async () => {
    server = await startDriftServer();
    const result = await conformInProcess(
      ['--url', server.url, '--json', '--max-requests', '3', '--exhaust'],
      server.clock,
    );
    expect(result.code).toBe(0);
    expect(server.received()).toBe(3);
    const checks = checksOf(result);
    expect(checks['exists.known-user']).toMatchObject({
      result: 'skip',
      reason: 'needs 1 request; 0 of the budget left (raise --max-requests)',
    });
    expect(JSON.parse(result.stdout)).toMatchObject({ requests: 3, max_requests: 3, passed: 4 });
  });

  it('sends at most one wrong code', async () => {
    server = await startDriftServer();
    await conformInProcess(['--url', server.url, '--json', '--exhaust', '--dev-api'], server.clock);
    const verifies = server.emulator.requests({ operation: 'verify' });
    expect(verifies.map((request) => request.status)).toEqual([422, 200]);
  });

  it('never prints the token, and escapes what a hostile server says, in every output', async () => {
    const token = 'sandbox-secret-token-123';
    server = await startDriftServer({
      answer: (answer, request) => ({
        status: 418,
        headers: { 'content-type': 'text/plain' },
        body: `you sent ${String(request.headers.authorization)} \u001b[2J\u001b]0;pwned\u0007 ${encodeURIComponent(token)}`,
      }),
    });
    const junit = `${process.cwd()}/test/contract/.conform-${process.pid}.xml`;
    const table = await conformInProcess(
      ['--url', server.url, '--token', token, '--junit', junit],
      server.clock,
    );
    const json = await conformInProcess(
      ['--url', server.url, '--token', token, '--json'],
      server.clock,
    );
    const { readFile, rm } = await import('node:fs/promises');
    const xml = await readFile(junit, 'utf8');
    await rm(junit);
    expect(table.code).toBe(1);
    for (const text of [table.stdout, table.stderr, json.stdout, xml]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(encodeURIComponent(token));
      expect(text).not.toContain('\u001b');
      expect(text).not.toContain('\u0007');
    }
    expect(table.stdout).toContain(
      'expected 200, got 418: you sent Bearer [redacted] \\x1b[2J\\x1b]0;pwned\\x07 [redacted]',
    );
    expect(xml).toContain('<testcase classname="uas.conform" name="exists.unknown-user">');
    expect(xml).toContain(
      '<failure message="expected 200, got 418: you sent Bearer [redacted] \\x1b[2J',
    );
  });

  it('exits 4 when the target cannot be reached, and 2 on usage', async () => {
    server = await startDriftServer();
    const url = server.url;
    await server.close();
    server = undefined;
    const unreachable = await conformInProcess(['--url', url]);
    expect(unreachable.code).toBe(4);
    expect(unreachable.stderr).toMatch(
      /^uas: cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/,
    );
    expect(unreachable.stdout).toContain('0 passed, 0 failed, 14 skipped');
    expect((await conformInProcess(['--url', 'ftp://x'])).code).toBe(2);
    expect((await conformInProcess(['--url', 'https://sandbox.example'])).stderr).toContain(
      'no access token for https://sandbox.example',
    );
    expect((await conformInProcess(['--max-requests', '0'])).code).toBe(2);
  });

  it('gives up on an answer that takes longer than --timeout, and reads no more than --max-response', async () => {
    server = await startDriftServer({
      stall: (request) => request.url.includes('caller_id=uas-conform-r1-d'),
      answer: (answer, request) =>
        request.url.includes('caller_id=uas-conform-r1-b')
          ? { ...answer, body: 'x'.repeat(5000) }
          : answer,
    });
    const result = await conformInProcess(
      ['--url', server.url, '--json', '--max-response', '1kb', '--timeout', '100ms'],
      server.clock,
    );
    const checks = checksOf(result);
    expect(checks['exists.invalid-email']?.differences).toEqual([
      "400 without a whole body: the answer's body passed the limit of 1024 bytes; not read further",
    ]);
    expect(checks['caller.separate-buckets']).toMatchObject({
      result: 'fail',
      requests: 1,
      differences: ['no answer: timed out'],
    });
    expect(result.code).toBe(1);
  });
});
