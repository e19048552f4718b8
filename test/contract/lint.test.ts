import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Document, Spectral } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import owasp from '@stoplight/spectral-owasp-ruleset';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevApiDocument } from '../../src/contract/dev-api-document.js';
import { createOpenApiDocument } from '../../src/contract/openapi-document.js';
import { resolveConfig } from '../../src/core/config/config.js';
import { DEMO_CONFIG } from '../../src/demo-config.js';

const REDOCLY = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

/** The OWASP rules on rate limiting: limit fields on 2xx and 4xx, Retry-After on 429, a 429 everywhere. */
const RATE_LIMIT_RULES = [
  'owasp:api4:2023-rate-limit',
  'owasp:api4:2023-rate-limit-retry-after',
  'owasp:api4:2023-rate-limit-responses-429',
];

/**
 * The OWASP rules (errors) that cannot apply to a local emulator, switched off by name, each with
 * why.
 */
const NOT_FOR_AN_EMULATOR: Record<string, string> = {
  // It serves plain HTTP on loopback: it has no certificate to serve HTTPS with.
  'owasp:api8:2023-no-server-http': 'off',
  // It sends no CORS fields: merchants' backends call it server to server, and the dashboard
  // reads the dev API from the same origin.
  'owasp:api8:2023-define-cors-origin': 'off',
};

/**
 * The OWASP rules (errors) that cannot apply to the dev API, on top of those, switched off by
 * name, each with why.
 */
const NOT_FOR_THE_DEV_API: Record<string, string> = {
  ...NOT_FOR_AN_EMULATOR,
  // The dev API is not rate limited: it answers a developer's tools and tests on loopback.
  'owasp:api4:2023-rate-limit': 'off',
  // after_id is a cursor over the journal's sequential record ids, not the id of a resource
  // whose guessing would reach another's data: the dev API shows the whole journal to any caller.
  'owasp:api1:2023-no-numeric-ids': 'off',
};

/** The service's document in each header style that has rate-limit fields, and the dev API's. */
const STYLES = ['draft-10', 'draft-7', 'draft-6', 'x-ratelimit'] as const;
const config = (headers: string) => resolveConfig({ ...DEMO_CONFIG, behavior: { headers } });

describe('the OpenAPI documents', () => {
  let directory: string;
  const files: Record<string, string> = {};
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'uas-contract-'));
    for (const style of STYLES) {
      files[style] = join(directory, `service-${style}.json`);
      await writeFile(files[style], JSON.stringify(createOpenApiDocument(config(style)), null, 2));
    }
    files['dev-api'] = join(directory, 'dev-api.json');
    await writeFile(
      files['dev-api'],
      JSON.stringify(createDevApiDocument(config('draft-10')), null, 2),
    );
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('pass redocly lint with its recommended rules, without an error or a warning', async () => {
    const run = promisify(execFile);
    const { stdout } = await run(
      process.execPath,
      [REDOCLY, 'lint', ...Object.values(files), '--extends', 'recommended', '--format', 'json'],
      {
        cwd: directory,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    // One JSON report per file, one after the other.
    const reports = JSON.parse(`[${stdout.trim().replace(/\}\s*\{/g, '},{')}]`) as Array<{
      totals: { errors: number; warnings: number };
      problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
    }>;
    expect(reports).toHaveLength(Object.keys(files).length);
    const problems = reports.flatMap((report) =>
      report.problems.map(
        (problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`,
      ),
    );
    expect(problems).toEqual([]);
    for (const report of reports) expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it.each(STYLES)('pass the OWASP rate-limit rules of Spectral in the %s style', async (style) => {
    const spectral = new Spectral();
    spectral.setRuleset({
      extends: [[owasp as never, 'off']],
      rules: Object.fromEntries(RATE_LIMIT_RULES.map((rule) => [rule, 'error'])),
    } as never);
    const text = await readFile(files[style] as string, 'utf8');
    const results = await spectral.run(new Document(text, Json, files[style]));
    expect(
      results.map((result) => `${result.code}: ${result.message} at ${result.path.join('.')}`),
    ).toEqual([]);
  });

  it.each(STYLES)(
    'pass every OWASP rule of Spectral without an error in the %s style',
    async (style) => {
      const spectral = new Spectral();
      spectral.setRuleset({
        extends: [[owasp as never, 'all']],
        rules: NOT_FOR_AN_EMULATOR,
      } as never);
      const text = await readFile(files[style] as string, 'utf8');
      const results = await spectral.run(new Document(text, Json, files[style]));
      expect(
        results
          .filter((result) => result.severity === 0)
          .map((result) => `${result.code}: ${result.message} at ${result.path.join('.')}`),
      ).toEqual([]);
    },
  );

  it('pass every OWASP rule of Spectral without an error in the dev API document, but those that cannot apply to it', async () => {
    const spectral = new Spectral();
    spectral.setRuleset({
      extends: [[owasp as never, 'all']],
      rules: NOT_FOR_THE_DEV_API,
    } as never);
    const text = await readFile(files['dev-api'] as string, 'utf8');
    const results = await spectral.run(new Document(text, Json, files['dev-api']));
    expect(
      results
        .filter((result) => result.severity === 0)
        .map((result) => `${result.code}: ${result.message} at ${result.path.join('.')}`),
    ).toEqual([]);
  });

  it('fail the OWASP rules when Retry-After is left out of a 429', async () => {
    const spectral = new Spectral();
    spectral.setRuleset({
      extends: [[owasp as never, 'off']],
      rules: Object.fromEntries(RATE_LIMIT_RULES.map((rule) => [rule, 'error'])),
    } as never);
    const document = createOpenApiDocument(
      resolveConfig({ ...DEMO_CONFIG, behavior: { retryAfter: 'absent' } }),
    );
    const results = await spectral.run(new Document(JSON.stringify(document), Json, 'absent.json'));
    expect(new Set(results.map((result) => result.code))).toEqual(
      new Set(['owasp:api4:2023-rate-limit-retry-after']),
    );
  });
});
