import { readFile, rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_CONFIG } from '../../src/demo-config.js';
import { conformInProcess, startDriftServer, type DriftServer } from './conform-helpers.js';

/** Every string in a parsed JSON value. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsOf);
  return [];
}

/** The attribute values and text of an XML document, unescaped. */
function xmlValues(xml: string): string[] {
  const unescape = (text: string) =>
    text
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  const body = xml.replace(/^<\?xml[^>]*\?>/, '');
  return [
    ...[...body.matchAll(/="([^"]*)"/g)].map((match) => unescape(match[1] as string)),
    ...[...body.matchAll(/>([^<]+)</g)].map((match) => unescape(match[1] as string)),
  ];
}

describe('uas conform with a token that is also text of its output formats', () => {
  let server: DriftServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it.each(['test', 'null', '"', '<', 'true'])(
    'keeps the JSON and JUnit reports whole, and redacts the token %j in each value that holds it',
    async (token) => {
      // A server that repeats the Authorization header it got, in every answer.
      server = await startDriftServer({
        answer: (answer, request) => ({
          status: 418,
          headers: { 'content-type': 'text/plain' },
          body: `you sent ${String(request.headers.authorization)}`,
        }),
      });
      const junit = `${process.cwd()}/test/contract/.conform-redaction-${process.pid}.xml`;
      const json = await conformInProcess(
        ['--url', server.url, '--token', token, '--json', '--junit', junit],
        server.clock,
      );
      const xml = await readFile(junit, 'utf8');
      await rm(junit);
      expect(json.code).toBe(1);
      const report = JSON.parse(json.stdout) as {
        checks: Array<{ id: string; result: string; differences: string[] }>;
        unreachable: null;
        admin_token: null;
      };
      expect(report).toMatchObject({ unreachable: null, admin_token: null });
      expect(report.checks).toHaveLength(14);
      for (const check of report.checks) expect(['pass', 'fail', 'skip']).toContain(check.result);
      expect(report.checks.flatMap((check) => check.differences)).toContain(
        'expected 200, got 418: you sent Bearer [redacted]',
      );
      // What the server sent is redacted wherever it is quoted (uas's own text is not: see below).
      expect(stringsOf(report).filter((value) => value.includes(`Bearer ${token}`))).toEqual([]);

      expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /);
      expect(xml.trimEnd()).toMatch(/<\/testsuites>$/);
      const cases = [...xml.matchAll(/<testcase classname="uas\.conform" name="([^"]*)"/g)];
      expect(cases.map((match) => match[1])).toEqual(report.checks.map((check) => check.id));
      expect(xml).toContain('you sent Bearer [redacted]');
      expect(xmlValues(xml).filter((value) => value.includes(`Bearer ${token}`))).toEqual([]);
    },
  );
});

describe('uas conform with a token that is also a word or a figure of its own reports', () => {
  /** A run with `--admin-token token` against an emulator that sends no Retry-After. */
  async function run(token: string) {
    const config = { ...DEMO_CONFIG, behavior: { retryAfter: 'absent' } };
    const server = await startDriftServer({}, config, token);
    const junit = `${process.cwd()}/test/contract/.conform-words-${process.pid}.xml`;
    try {
      const args = ['--url', server.url, '--dev-api', '--exhaust', '--admin-token', token];
      const json = await conformInProcess([...args, '--json', '--junit', junit], server.clock);
      const text = await conformInProcess(args, server.clock);
      // The one thing the two runs may differ in: the port of their server.
      const same = (output: string) => output.split(server.url).join('http://127.0.0.1:PORT');
      const xml = same(await readFile(junit, 'utf8'));
      return {
        code: json.code,
        json: JSON.parse(same(json.stdout)) as Record<string, unknown>,
        text: same(text.stdout),
        xml,
      };
    } finally {
      await rm(junit, { force: true });
      await server.close();
    }
  }

  it.each(['fail', 'pass', 'skip', '1', 'requests'])(
    'reports with the admin token %j what it reports with a token nothing else says',
    async (token) => {
      const plain = await run('a-token-no-report-says');
      const tried = await run(token);
      expect(plain.code).toBe(1);
      expect(tried.code).toBe(1);
      expect(tried.json).toEqual(plain.json);
      expect(tried.json).toMatchObject({ failed: 1 });
      expect(JSON.stringify(tried.json)).not.toContain('[redacted]');
      expect(tried.xml).toBe(plain.xml);
      expect(tried.xml).toContain('failures="1"');
      expect(tried.text).toBe(plain.text);
    },
  );
});
