import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_CONFIG, DEMO_TOKEN } from '../../src/demo-config.js';
import type { FidelityReport } from '../../src/conform/fidelity-report.js';
import { answer, useHostileServers } from '../helpers/hostile-server.js';
import { rawExchange, useInstances, type Running } from '../helpers/proxy-stand-in.js';
import { runUas } from '../helpers/spawn-uas.js';
import { tempDir } from '../helpers/temp-dir.js';

const start = useInstances();
const hostile = useHostileServers();

/** Sends `count` exists with one caller_id through the proxy, records its journal, and reports. */
async function fidelityOf(proxy: Running, count: number) {
  for (let sent = 0; sent < count; sent++)
    await rawExchange(
      `${proxy.url}/v1/users/exists?email=alice%40example.com&caller_id=shopper-1`,
      {
        headers: { authorization: `Bearer ${DEMO_TOKEN}` },
      },
    );
  const file = join(tempDir('uas-fidelity-'), 'staging.ndjson');
  writeFileSync(
    file,
    proxy.emulator
      .requests()
      .map((record) => JSON.stringify(record))
      .join('\n'),
  );
  const json = await runUas(['conform', '--journal', file, '--json']);
  const text = await runUas(['conform', '--journal', file]);
  return { json, report: JSON.parse(json.stdout) as FidelityReport, text };
}

describe('uas conform --journal: the fidelity report', () => {
  it('names every planted difference and prints a config that matches', async () => {
    const real = await hostile((socket) =>
      answer(
        socket,
        429,
        [
          ['Content-Type', 'application/problem+json'],
          ['Retry-After', '30'],
          ['X-RateLimit-Limit', '10'],
          ['X-RateLimit-Remaining', '0'],
          ['uas-bucket', 'client:merchant-7'],
        ],
        JSON.stringify({
          type: 'https://errors.example/slow-down',
          status: 429,
          title: 'Slow down',
        }),
      ),
    );
    const proxy = await start(DEMO_CONFIG, { base: real.url });
    const { json, report, text } = await fidelityOf(proxy, 3);
    expect(json.code).toBe(1);
    expect(report.exchanges).toBe(3);
    expect(report.retry_after).toEqual({
      refusals: 3,
      absent: 0,
      unreadable: 0,
      least: 30,
      most: 30,
      values: [{ seconds: 30, count: 3 }],
    });
    expect(report.differences.map((difference) => difference.topic).sort()).toEqual([
      'problem-type',
      'rate-limit-headers',
      'refusal-bucket',
      'retry-after',
    ]);
    expect(report.config).toEqual({ behavior: { retryAfter: 'fixed:30', headers: 'x-ratelimit' } });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('retry-after: the real service: Retry-After 30 s on 3 of 3 429s');
    expect(text.stdout).toContain('https://errors.example/slow-down');
    expect(text.stdout).toContain('"retryAfter": "fixed:30"');
  });

  it('finds no difference in a stand-in that answers as the emulator does', async () => {
    const real = await start(DEMO_CONFIG);
    const proxy = await start(DEMO_CONFIG, { base: real.url });
    const { json, report } = await fidelityOf(proxy, 7);
    expect(report.statuses.map(({ status, count }) => [status, count])).toEqual([
      [200, 5],
      [429, 2],
    ]);
    expect(report.headers.style).toBe('draft-10');
    expect(report.refusal_buckets).toMatchObject({ caller: 2, expected_other: 0 });
    expect(report.differences).toEqual([]);
    expect(json.code).toBe(0);
  });

  it('refuses a recording without a request the real service answered, naming it by its whole path', async () => {
    const dir = tempDir('uas-fidelity-');
    const file = join(dir, 'emulated.ndjson');
    writeFileSync(file, '');
    // Given as relative, named as a missing one is: by its whole path.
    const { code, stderr } = await runUas(['conform', '--journal', 'emulated.ndjson'], {}, dir);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      new RegExp(
        `^uas: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} holds no request the real service answered`,
      ),
    );
  });

  it('says what the recording lost (its loss lines) in both formats and on stderr', async () => {
    const record = {
      id: 1,
      at: Date.parse('2026-01-01T10:00:00.100Z'),
      method: 'GET',
      path: '/v1/users/exists',
      operation: 'exists',
      client_id: 'demo',
      email: 'alice@example.com',
      caller_id: 'shopper-1',
      caller_id_source: 'query',
      caller_id_misplaced: [],
      fields: { email: 'alice@example.com', caller_id: 'shopper-1' },
      fingerprint: '6d76641a958e8c33',
      bucket: 'caller:demo:shopper-1',
      level: 'caller',
      status: 200,
      outcome: 'allowed',
      remaining: 4,
      upstream: { answered_by: 'upstream', headers: [], bucket: 'caller:demo:shopper-1' },
    };
    const loss =
      '{"uas_recording":"loss","lost":12,"from":"2026-01-01T10:00:00.120Z","to":"2026-01-01T10:00:00.180Z","reason":"buffer-full"}';
    const file = join(tempDir('uas-fidelity-'), 'lossy.ndjson');
    writeFileSync(file, `${JSON.stringify(record)}\n${loss}\n`);
    const said =
      'the recording lost 12 requests between 2026-01-01T10:00:00.120Z and 2026-01-01T10:00:00.180Z (buffer-full; 1 loss marker); they are not compared';
    const text = await runUas(['conform', '--journal', file]);
    expect(text.stdout).toContain(`incomplete: ${said}`);
    expect(text.stderr.trim()).toBe(`uas: ${said}`);
    const json = await runUas(['conform', '--journal', file, '--json']);
    expect((JSON.parse(json.stdout) as FidelityReport).incomplete).toBe(said);
    // A last line cut short (the server stopped while writing it) is said in the report too.
    const cut = join(tempDir('uas-fidelity-'), 'cut.ndjson');
    writeFileSync(cut, `${JSON.stringify(record)}\n{"id":2,"at":17`);
    const cutJson = await runUas(['conform', '--journal', cut, '--json']);
    const incomplete = (JSON.parse(cutJson.stdout) as FidelityReport).incomplete;
    expect(incomplete).toMatch(/line 2: cut short/);
    expect(cutJson.stderr).toBe(`uas: ${incomplete}\n`);
  });

  it.each([
    [['--url', 'http://127.0.0.1:1'], '--url'],
    [['--dry-run'], '--dry-run'],
    // The suite's flags, which a report on a recording would silently leave unused (--junit:
    // below).
    [['--exhaust'], '--exhaust'],
    [['--token', 'uas-demo-token'], '--token'],
    [['--max-requests', '5'], '--max-requests'],
  ])('refuses --journal with %j in one line (exit 2)', async (flags, name) => {
    const file = join(tempDir('uas-fidelity-'), 'emulated.ndjson');
    writeFileSync(file, '');
    const { code, stderr } = await runUas(['conform', '--journal', file, ...flags]);
    expect(code).toBe(2);
    expect(stderr.trim()).toMatch(new RegExp(`^uas: --journal .*cannot go with ${name}$`));
  });

  it.each([
    [['--journal', 'x.ndjson'], '--journal'],
    [['--dry-run'], '--dry-run'],
  ])('refuses --junit with %j, which runs no check, and writes no file', async (flags, name) => {
    const dir = tempDir('uas-fidelity-');
    const { code, stderr } = await runUas(
      ['conform', ...flags, '--junit', join(dir, 'out.xml')],
      {},
      dir,
    );
    expect(code).toBe(2);
    expect(stderr).toBe(
      `uas: --junit writes the results of the checks, and ${name} runs none; leave one of them out\n`,
    );
    expect(existsSync(join(dir, 'out.xml'))).toBe(false);
  });
});
