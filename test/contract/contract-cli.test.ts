import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenApiDocument } from '../../src/contract/openapi-document.js';
import { resolveConfig } from '../../src/core/config/config.js';
import { DEMO_CONFIG } from '../../src/demo-config.js';
import { runCli } from '../helpers/run-cli.js';
import { runUas, spawnUas, type UasProcess } from '../helpers/spawn-uas.js';

const running: UasProcess[] = [];
afterEach(async () => {
  for (const uas of running.splice(0)) {
    if (uas.child.exitCode === null) {
      uas.child.kill('SIGKILL');
      await uas.exited;
    }
  }
});

const serve = async (args: string[]) => {
  const uas = spawnUas(['serve', '--port', '0', '--log', 'off', ...args]);
  running.push(uas);
  const [, url] = await uas.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
  await uas.waitFor(/\n {2}try /);
  return url as string;
};

describe('uas openapi', () => {
  it('prints the document of the config and flags uas serve would run with, as JSON or YAML', async () => {
    const json = await runCli(['openapi', '--caller-burst', '3', '--headers', 'draft-7']);
    expect(json.code).toBe(0);
    const expected = createOpenApiDocument(
      resolveConfig({
        ...DEMO_CONFIG,
        limits: { ...DEMO_CONFIG.limits, caller: { burst: 3, rate: '1/s' } },
        behavior: { headers: 'draft-7' },
      }),
    );
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(JSON.stringify(expected)));
    const yaml = await runCli(['openapi', '--caller-burst', '3', '--headers', 'draft-7', '--yaml']);
    expect(parseYaml(yaml.stdout)).toEqual(JSON.parse(json.stdout));
  });

  it('reads --config, prints the dev API document on request, and refuses bad input with exit 2', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'uas-openapi-'));
    const file = join(directory, 'config.json');
    await writeFile(
      file,
      JSON.stringify({
        ...DEMO_CONFIG,
        limits: { ...DEMO_CONFIG.limits, client: { burst: 7, rate: '7/s' } },
      }),
    );
    const fromFile = await runCli(['openapi', '--config', file]);
    expect(fromFile.stdout).toContain('the client bucket holds 7 tokens and refills at 7/s');
    const dev = await runCli(['openapi', '--dev-api', '--server-url', 'http://uas.internal:8080/']);
    expect(JSON.parse(dev.stdout)).toMatchObject({
      info: { title: 'uas dev API' },
      servers: [{ url: 'http://uas.internal:8080' }],
    });
    const bad = await runCli(['openapi', '--config', file, '--client-rate', 'fast']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'uas: invalid --client-rate: expected a rate such as "10/s", "100/m" or "5/10s"; got "fast"\n',
    );
    await rm(directory, { recursive: true });
  });
});

describe('uas conform, the built binary against uas serve', () => {
  it.each([['fast'], ['msw']])(
    'passes against the %s engine, with a JUnit report, and fails against a stricter expectation',
    async (engine) => {
      const url = await serve(['--engine', engine]);
      const directory = await mkdtemp(join(tmpdir(), 'uas-conform-'));
      const junit = join(directory, 'conform.xml');
      const passed = await runUas(['conform', '--url', url, '--dev-api', '--junit', junit]);
      expect(passed.stderr).toBe('');
      expect(passed.code).toBe(0);
      expect(passed.stdout).toContain('11 passed, 0 failed, 3 skipped');
      expect(passed.stdout).toMatch(
        /limit\.caller-exhausted .*skip .*opt-in: --exhaust spends real quota/,
      );
      const xml = await readFile(junit, 'utf8');
      expect(xml).toContain(
        '<testsuites name="uas conform" tests="14" failures="0" errors="0" skipped="3">',
      );
      const stricter = await runUas([
        'conform',
        '--url',
        url,
        '--headers',
        'x-ratelimit',
        '--json',
      ]);
      expect(stricter.code).toBe(1);
      expect(
        JSON.parse(stricter.stdout).checks.find(
          (check: { id: string }) => check.id === 'headers.rate-limit',
        ),
      ).toMatchObject({
        result: 'fail',
        differences: expect.arrayContaining(['exists 200: X-RateLimit-Limit is missing']),
      });
      await rm(directory, { recursive: true });
    },
  );
});
