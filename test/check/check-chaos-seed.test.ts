import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'uas-check-seed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An integration that sends 20 requests one after the other and prints each Retry-After. */
const SCRIPT = join(dir, 'twenty.mjs');
writeFileSync(
  SCRIPT,
  `const waits = [];
for (let i = 0; i < 20; i++) {
  const answer = await fetch(process.env.UAS_URL + '/v1/users/exists?email=s' + i + '%40example.com&caller_id=203.0.113.' + i, {
    headers: { authorization: 'Bearer ' + process.env.UAS_TOKEN },
  });
  waits.push(answer.headers.get('retry-after'));
}
process.stderr.write('WAITS ' + JSON.stringify(waits) + '\\n');
`,
);

const waitsOf = (stderr: string) =>
  JSON.parse(/^WAITS (.*)$/m.exec(stderr)?.[1] ?? 'null') as (string | null)[];

describe('uas check -- <command>: chaos', () => {
  it('asks for 1 or 2 s in an injected 429 by default, so that retries fit a test timeout', async () => {
    const result = await runCli([
      'check',
      '--chaos',
      '1',
      '--json',
      '--',
      process.execPath,
      SCRIPT,
    ]);
    const waits = waitsOf(result.stderr);
    expect(waits).toHaveLength(20);
    expect(new Set(waits)).toEqual(new Set(['1', '2']));
  });

  it('takes the range of --chaos-retry-after', async () => {
    const result = await runCli([
      'check',
      '--chaos',
      '1',
      '--chaos-retry-after',
      '3',
      '--json',
      '--',
      process.execPath,
      SCRIPT,
    ]);
    expect(new Set(waitsOf(result.stderr))).toEqual(new Set(['3']));
  });

  it('replays the same chaos with the same --seed, and gives the seed in --json', async () => {
    const run = () =>
      runCli(['check', '--chaos', '0.5', '--seed', '42', '--json', '--', process.execPath, SCRIPT]);
    const [first, second] = [await run(), await run()];
    expect(waitsOf(first.stderr)).toEqual(waitsOf(second.stderr));
    expect(waitsOf(first.stderr)).toContain(null);
    expect(waitsOf(first.stderr).some((wait) => wait !== null)).toBe(true);
    expect(JSON.parse(first.stdout)).toMatchObject({ seed: 42 });
  });

  it('prints the random seed it chose in the text report, and that seed replays the run', async () => {
    const result = await runCli(['check', '--chaos', '0.5', '--', process.execPath, SCRIPT]);
    const seed = /^seed (\d+): --seed \1 replays this run's chaos$/m.exec(result.stdout)?.[1];
    expect(seed).toBeDefined();
    const again = await runCli([
      'check',
      '--chaos',
      '0.5',
      '--seed',
      seed!,
      '--',
      process.execPath,
      SCRIPT,
    ]);
    expect(waitsOf(again.stderr)).toEqual(waitsOf(result.stderr));
  });

  it('says in its help how test-runner timeouts relate to the chaos, and how to change the range', async () => {
    const help = await runCli(['check', '--help']);
    expect(help.stdout).toContain('--chaos-retry-after <seconds>');
    expect(help.stdout).toContain('--seed <n>');
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      'within the 5 s that vitest and jest give a test by default',
    );
  });
});
