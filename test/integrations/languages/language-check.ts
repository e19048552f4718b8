import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CheckReport, RuleId } from '../../../src/check/check-report.js';
import type { CommandOutcome } from '../../../src/check/command-outcome.js';
import { requireTool } from '../../helpers/require-tool.js';
import { runUas } from '../../helpers/spawn-uas.js';
import { flagsOf, type LanguageCase, type LanguageSuite } from './language-suites.js';

// Each run of language-suites.ts as a user would make it, from the backend's folder:
// `uas check --json --fail-on warn [flags] -- <its own test command>`.

export const INTEGRATIONS = fileURLToPath(
  new URL('../../../fixtures/integrations/', import.meta.url),
);

interface LanguageOutcome {
  code: number | null;
  report: CheckReport & { summary: { command?: CommandOutcome } };
  stderr: string;
}

/** Runs `uas check` with `flags` over `command` in `cwd`. */
async function checkCommand(
  cwd: string,
  flags: readonly string[],
  command: readonly string[],
  env: Record<string, string>,
): Promise<LanguageOutcome> {
  const args = ['check', '--json', '--fail-on', 'warn', '--timeout', '3m', ...flags, '--'];
  const { code, stdout, stderr } = await runUas([...args, ...command], env, cwd);
  try {
    return { code, report: JSON.parse(stdout) as LanguageOutcome['report'], stderr };
  } catch {
    throw new Error(`uas check printed no report (exit ${code}): ${stdout}\n${stderr}`);
  }
}

/** Whether `command` runs and exits 0 (a toolchain's version, an import). */
export const runs = (command: string, args: readonly string[]): boolean =>
  spawnSync(command, args, { stdio: 'ignore', timeout: 60_000 }).status === 0;

/** A python3 with requests, urllib3 and pytest: the one on PATH, else Debian's. */
export function findPython(): string | undefined {
  const present = ['python3', '/usr/bin/python3'].find((python) =>
    runs(python, ['-c', 'import requests, urllib3, pytest']),
  );
  const install = 'apt-get install python3-pytest python3-requests';
  return requireTool('python3 with requests and pytest', present !== undefined, install)
    ? present
    : undefined;
}

/** Go's variables for an offline build: no module proxy, a cache where one can be written. */
export function goEnv(): Record<string, string> {
  const env: Record<string, string> = { GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '' };
  try {
    accessSync(homedir(), constants.W_OK);
  } catch {
    env.GOCACHE = join(tmpdir(), 'uas-go-cache');
    mkdirSync(env.GOCACHE, { recursive: true });
  }
  return env;
}

const explain = ({ report, stderr }: LanguageOutcome): string =>
  `${JSON.stringify(report.findings, null, 1)}\n${stderr}`;

const RETRY_RULES: RuleId[] = [
  'retry-before-retry-after',
  'retry-cap-exceeded',
  'ignores-429',
  'retry-without-backoff',
  'retry-without-jitter',
];

/**
 * What a run of the correct backend must have judged (and passed): every retry rule when every
 * request is refused, the 4xx of the mistyped code and the caller_id rules when none is.
 */
function exercisedBy({ chaos, rules }: LanguageCase): RuleId[] {
  if (rules.length > 0 || chaos === 'default') return [];
  return chaos === 1
    ? RETRY_RULES
    : ['retry-on-client-error', 'caller-id-shared', 'caller-id-per-request'];
}

export interface LanguageRunner {
  /** Whether its toolchain is here (requireTool decides whether a missing one fails). */
  present: boolean;
  /** The program that stands for the command's first word (the python3 that has pytest). */
  program?: string | undefined;
  env?: Record<string, string>;
}

/** The tests of one language: each run raises exactly its rules, its own tests passing. */
export function describeLanguage(suite: LanguageSuite, runner: LanguageRunner): void {
  const name = (test: LanguageCase) =>
    `the ${test.variant} backend${test.chaos === 'default' ? '' : ` under --chaos ${test.chaos}`}`;
  describe.skipIf(!runner.present)(`uas check on the ${suite.name} merchant backends`, () => {
    it.each(suite.cases.map((test) => [name(test), test] as const))(
      '%s raises exactly its rules, its own tests passing',
      async (_name, test) => {
        const [first, ...rest] = suite.command(test.variant);
        const command = [runner.program ?? first!, ...rest];
        const cwd = join(INTEGRATIONS, suite.folder);
        const outcome = await checkCommand(cwd, flagsOf(test), command, runner.env ?? {});
        const { code, report } = outcome;
        const failed = report.findings.map((finding) => finding.rule).sort();
        expect(failed, explain(outcome)).toEqual([...test.rules].sort());
        expect(report.summary.command?.exit_code, explain(outcome)).toBe(0);
        expect(code, explain(outcome)).toBe(test.rules.length === 0 ? 0 : 1);
        const statuses = Object.fromEntries(report.rules.map((rule) => [rule.rule, rule.status]));
        for (const rule of exercisedBy(test)) expect(statuses[rule], rule).toBe('passed');
      },
      240_000,
    );
  });
}
