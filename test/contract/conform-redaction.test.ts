import { readFile, rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
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
      expect(stringsOf(report).filter((value) => value.includes(token))).toEqual([]);

      expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /);
      expect(xml.trimEnd()).toMatch(/<\/testsuites>$/);
      const cases = [...xml.matchAll(/<testcase classname="uas\.conform" name="([^"]*)"/g)];
      expect(cases.map((match) => match[1])).toEqual(report.checks.map((check) => check.id));
      expect(xml).toContain('you sent Bearer [redacted]');
      expect(xmlValues(xml).filter((value) => value.includes(token))).toEqual([]);
    },
  );
});
