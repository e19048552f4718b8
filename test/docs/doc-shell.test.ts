import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_REDIS, startRedis } from '../helpers/redis-server.js';
import { blocksOf, optionsOf, where, type DocBlock } from './doc-blocks.js';
import { startPool } from './doc-pool.js';
import {
  createDocShell,
  prepareScript,
  serveFlagsOf,
  type DocShell,
  type ShellRun,
} from './doc-shell.js';

// The shell examples of README and docs/ (`test: sh`), run as a reader would run them (`uas` on
// PATH, an emulator at the address they name), each command exiting as shown and each curl
// getting the status its comment shows.

const blocks = blocksOf('sh');
let shell: DocShell;
let runs: Map<DocBlock, Promise<(ShellRun & { expected: string[] }) | 'skipped'>>;

beforeAll(() => {
  shell = createDocShell(mkdtempSync(join(tmpdir(), 'uas-docs-')));
  runs = startPool(blocks, 2, async (block) => {
    const needsRedis = optionsOf(block).includes('redis');
    if (needsRedis && !HAS_REDIS) return 'skipped';
    const redis = needsRedis ? await startRedis() : undefined;
    try {
      const { text, statuses } = prepareScript(block.body);
      const run = await shell.run(text, {
        serveFlags: serveFlagsOf(block),
        traffic: optionsOf(block).includes('traffic'),
        ...(redis ? { redisUrl: redis.url } : {}),
      });
      return { ...run, expected: statuses };
    } finally {
      await redis?.stop();
    }
  });
}, 60_000);
afterAll(() => shell?.dispose());

describe('the shell examples', () => {
  it('are there to run', () => {
    expect(blocks.length).toBeGreaterThan(10);
  });

  it.each(blocks.map((block) => [where(block), block] as const))(
    'run as shown: %s',
    async (_, block) => {
      const run = await runs.get(block)!;
      if (run === 'skipped') return;
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.statuses, 'the statuses the comments show').toEqual(run.expected);
    },
    180_000,
  );
});
