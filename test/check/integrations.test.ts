import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/check/check-report.js';
import { UAS_BIN } from '../helpers/spawn-uas.js';
import { FIXTURE_CASES as CASES, FIXTURES, type FixtureCase as Case } from './fixture-cases.js';

// Every fixture integration under fixtures/integrations, run through the real binary as a user
// would: `uas check --json --fail-on warn [flags] -- node <fixture>`. Each mistake raises exactly
// its rules, and the correct integration none at all (the flags: fixture-cases.ts).

interface Outcome {
  code: number | null;
  report: CheckReport;
  stderr: string;
}

function check(test: Case): Promise<Outcome> {
  const args = [UAS_BIN, 'check', '--json', '--fail-on', 'warn', ...test.flags, '--'];
  const child = spawn(process.execPath, [...args, process.execPath, `${test.fixture}.mjs`], {
    cwd: FIXTURES,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve({ code, report: JSON.parse(stdout) as CheckReport, stderr });
      } catch {
        reject(new Error(`uas check printed no report (exit ${code}): ${stdout}\n${stderr}`));
      }
    });
  });
}

// Each check spends most of its time waiting out Retry-After, but the retry rules measure those
// waits to 50 ms: on two cores, where vitest runs another test file beside this one, more than
// two checks at once add enough scheduling noise to hide a fixture's herd (seen once in sixteen
// runs with three). One per core beyond the other file's, at least two.
const CONCURRENCY = Math.min(3, Math.max(2, availableParallelism() - 1));
const outcomes = new Map<Case, Promise<Outcome>>();

beforeAll(() => {
  let next = 0;
  const slots: Array<(outcome: Promise<Outcome>) => void> = [];
  for (const test of CASES) outcomes.set(test, new Promise((resolve) => slots.push(resolve)));
  const worker = async () => {
    while (next < CASES.length) {
      const index = next++;
      const outcome = check(CASES[index]!);
      slots[index]!(outcome);
      await outcome.catch(() => {});
    }
  };
  for (let worker_ = 0; worker_ < CONCURRENCY; worker_++) void worker();
});

const name = ({ fixture, flags }: Case) =>
  `${fixture}.mjs${flags.length > 0 ? ` (${flags.join(' ').replace(FIXTURES, '')})` : ''}`;

describe('uas check on the fixture integrations', () => {
  it.each(CASES.map((test) => [name(test), test] as const))(
    '%s raises exactly its rules',
    async (_name, test) => {
      const { code, report, stderr } = await outcomes.get(test)!;
      const failed = report.findings.map((finding) => finding.rule).sort();
      expect(failed, `${JSON.stringify(report.findings, null, 1)}\n${stderr}`).toEqual(
        [...test.rules].sort(),
      );
      expect(code, stderr).toBe(test.rules.length === 0 ? 0 : 1);
      expect(report.summary.requests).toBeGreaterThan(0);
    },
    60_000,
  );

  it('finds the correct integration right on every retry rule when every request is refused', async () => {
    const refused = CASES.find((test) => test.fixture === 'correct' && test.flags.includes('1'))!;
    const { report } = await outcomes.get(refused)!;
    const statuses = Object.fromEntries(report.rules.map((rule) => [rule.rule, rule.status]));
    expect(statuses).toMatchObject({
      'retry-before-retry-after': 'passed',
      'retry-cap-exceeded': 'passed',
      'retry-without-backoff': 'passed',
      'retry-without-jitter': 'passed',
      'ignores-429': 'passed',
      'caller-id-shared': 'passed',
      'caller-id-internal-ip': 'passed',
    });
    // Every shopper was refused three times and gave up: the cap, not more.
    expect(report.summary.attempts).toEqual({ 3: 12 });
  }, 60_000);
});
