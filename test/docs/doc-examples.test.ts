import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLossMarker, formatLossMarker } from '../../src/check/recording-loss.js';
import { createEmulator, createManualClock, DEMO_TOKEN } from '../../src/index.js';
import { HAS_REDIS, startRedis } from '../helpers/redis-server.js';
import { spawnUas, waitForUrl } from '../helpers/spawn-uas.js';
import { argumentOf, blocksOf, where, type DocBlock } from './doc-blocks.js';
import { createDocShell, prepareScript, type DocShell } from './doc-shell.js';

// The examples of README and docs/ that need a check of their own (`test: example <name>`):
// headers, bodies and files the emulator writes, a compose file and a CI workflow.

let shell: DocShell;
beforeAll(() => {
  shell = createDocShell(mkdtempSync(join(tmpdir(), 'uas-docs-examples-')));
}, 60_000);
afterAll(() => shell?.dispose());

/** `n` requests of exists for alice, with `caller_id` 203.0.113.7, the last one's answer. */
function existsTimes(n: number) {
  const emulator = createEmulator({ clock: createManualClock(Date.parse('2026-01-01T00:00:00Z')) });
  let answer;
  for (let index = 0; index < n; index++)
    answer = emulator.handle({
      method: 'GET',
      url: '/v1/users/exists?email=alice%40example.com&caller_id=203.0.113.7',
      headers: { authorization: `Bearer ${DEMO_TOKEN}` },
    });
  return answer!;
}

/** The `uas serve` arguments of a shell command line, after `uas serve`. */
const serveArgs = (command: string): string[] =>
  command
    .slice(command.indexOf('uas serve') + 'uas serve'.length)
    .trim()
    .split(/\s+/);

const EXAMPLES: Record<string, (block: DocBlock) => Promise<void> | void> = {
  /** `Name: value   # comment` lines: the fields of the third answer of a caller. */
  'rate-limit-fields'(block) {
    const { headers } = existsTimes(3);
    for (const line of block.body.trim().split('\n')) {
      const [, name, value] = /^([\w-]+): (.*?)(?:\s+#.*)?$/.exec(line)!;
      expect(headers[name!.toLowerCase()], name).toBe(value);
    }
  },

  /** The body of the sixth answer, the first one refused. */
  'quota-exceeded-body'(block) {
    const answer = existsTimes(6);
    expect(answer.status).toBe(429);
    expect(answer.body ?? JSON.parse(answer.text!)).toEqual(JSON.parse(block.body));
  },

  /** The lines the banner gives the ways this emulator departs from the real service. */
  async 'serve-departures'(block) {
    const text = block.body.trimEnd();
    const flags = [
      '--otp',
      'fixed:123456',
      '--latency',
      '50ms-200ms',
      '--chaos',
      '0.1',
      '--shadow',
    ];
    const uas = spawnUas(['serve', '--port', '0', ...flags]);
    try {
      await waitForUrl(uas);
      for (const line of text.split('\n')) expect(uas.stdout()).toContain(`${line}\n`);
    } finally {
      uas.child.kill('SIGTERM');
      await uas.exited;
    }
  },

  /** A recording's loss line, as uas serve --record writes it and uas check reads it. */
  'loss-line'(block) {
    const loss = readLossMarker(JSON.parse(block.body));
    expect(typeof loss).toBe('object');
    expect(formatLossMarker(loss as Exclude<typeof loss, string | undefined>)).toBe(block.body);
  },

  /**
   * The compose file: its uas service runs `uas serve` with the flags shown, on a Redis, guarded by
   * the admin token it sets (the image and `npx -p uas` need the registry and Docker).
   */
  async 'compose-file'(block) {
    const compose = parseYaml(block.body) as {
      services: { uas: { command: string; environment: Record<string, string> } };
    };
    const { command, environment } = compose.services.uas;
    expect(command).toMatch(/^npx --yes -p uas -p ioredis@5 uas serve /);
    if (!HAS_REDIS) return;
    const redis = await startRedis();
    try {
      const args = serveArgs(command).map((arg) =>
        arg.replace('redis://redis:6379/0', redis.url).replace('0.0.0.0', '127.0.0.1'),
      );
      const uas = spawnUas(['serve', '--port', '0', ...args], environment);
      try {
        const url = await waitForUrl(uas);
        expect(uas.stdout()).toContain('store     Redis at');
        const devApi = await fetch(`${url}/__uas/health`);
        expect(devApi.status).toBe(401);
        const withToken = await fetch(`${url}/__uas/health`, {
          headers: { authorization: `Bearer ${environment.UAS_ADMIN_TOKEN}` },
        });
        expect(withToken.status).toBe(200);
      } finally {
        uas.child.kill('SIGTERM');
        await uas.exited;
      }
    } finally {
      await redis.stop();
    }
  },

  /** The steps of a GitHub Actions job: each `run` is a command that passes here. */
  async 'ci-workflow'(block) {
    const steps = parseYaml(block.body) as { name: string; run?: string; uses?: string }[];
    const runs = steps.filter((step) => step.run !== undefined);
    expect(runs.length).toBeGreaterThan(0);
    for (const step of runs) {
      // `npx uas` in the job is the uas the project installed: here, the one on PATH.
      const { text } = prepareScript(step.run!.replace(/^npx uas /, 'uas '));
      const result = await shell.run(text);
      expect(result.code, `${step.name}: ${result.stderr}`).toBe(0);
    }
    expect(steps.find((step) => step.uses?.startsWith('actions/upload-artifact'))).toBeDefined();
  },
};

const blocks = blocksOf('example');

describe('the examples with a check of their own', () => {
  it('each name a check that exists, and every check has its example', () => {
    const names = blocks.map(argumentOf);
    expect(names.filter((name) => !(name in EXAMPLES))).toEqual([]);
    expect(Object.keys(EXAMPLES).filter((name) => !names.includes(name))).toEqual([]);
  });

  it.each(blocks.map((block) => [`${argumentOf(block)} at ${where(block)}`, block] as const))(
    'hold: %s',
    async (_, block) => {
      await EXAMPLES[argumentOf(block)]!(block);
    },
    60_000,
  );
});
