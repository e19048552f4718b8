import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/core/config/config.js';
import { DEMO_CONFIG } from '../../src/demo-config.js';
import { allBlocks } from '../docs/doc-blocks.js';
import { runUas } from '../helpers/spawn-uas.js';

// The blocks of docs/proxy.md marked `test: by` this file: the recipe's commands use flags each
// command has, and the config the fidelity report prints is one uas takes.
const blocks = allBlocks().filter(
  (block) =>
    block.page === 'docs/proxy.md' &&
    block.marker?.kind === 'test' &&
    block.marker.argument === 'test/proxy/proxy-docs.test.ts',
);

describe('docs/proxy.md', () => {
  it('has the recipe and the config it shows', () => {
    expect(blocks.map((block) => block.lang)).toEqual(['sh', 'json']);
  });

  it('runs its recipe with flags each command has', async () => {
    const lines = blocks[0]!.body.trim().split('\n');
    for (const line of lines) {
      const [, command, rest] = /\buas (\w+)(.*)$/.exec(line) ?? [];
      if (command === undefined) continue;
      const help = await runUas([command, '--help']);
      for (const flag of rest!.match(/--[a-z-]+/g) ?? [])
        expect(help.stdout, `${command} ${flag}`).toContain(flag);
    }
  });

  it('shows a config uas takes, with the Retry-After and header style it names', () => {
    const patch = JSON.parse(blocks[1]!.body) as { behavior: Record<string, string> };
    const config = resolveConfig({ ...DEMO_CONFIG, behavior: patch.behavior });
    expect(config.behavior.retryAfter).toEqual({ mode: 'fixed', seconds: 30 });
    expect(config.behavior.headers).toBe('x-ratelimit');
  });
});
