import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CheckReport, RuleId } from '../../../src/check/check-report.js';
import type { CommandOutcome } from '../../../src/check/command-outcome.js';
import { requireTool } from '../../helpers/require-tool.js';
import { UAS_BIN } from '../../helpers/spawn-uas.js';

// The merchant backends in other languages under fixtures/integrations/<language>/, each run as
// a user would: `uas check --json --fail-on warn -c languages.config.json --chaos <p> -- <its own
// test command>`. The config keeps buckets roomy and the Retry-After of injected 429s at 1 to
// 2 s, so that a run with every request refused (`--chaos 1`) takes a few seconds.

export const INTEGRATIONS = fileURLToPath(
  new URL('../../../fixtures/integrations/', import.meta.url),
);
export const LANGUAGES_CONFIG = join(INTEGRATIONS, 'languages.config.json');

/** One run of `uas check` over a backend's test command, and the rules it must raise. */
export interface LanguageCase {
  /** `correct` or `wrong`. */
  variant: string;
  /** The probability of an injected 429: 0 judges caller_ids and 4xx, 1 every retry rule. */
  chaos: 0 | 1;
  /** The rules that fail, in any order; none for the correct backend. */
  rules: RuleId[];
}

export interface LanguageOutcome {
  code: number | null;
  report: CheckReport & { summary: { command?: CommandOutcome } };
  stderr: string;
  ms: number;
}

/** Runs `uas check` over `command` in `cwd` (a folder of fixtures/integrations). */
export function checkCommand(
  cwd: string,
  command: readonly string[],
  chaos: number,
  env: Record<string, string> = {},
): Promise<LanguageOutcome> {
  const args = ['check', '--json', '--fail-on', 'warn', '--timeout', '3m'];
  const flags = ['-c', LANGUAGES_CONFIG, '--chaos', String(chaos)];
  const started = performance.now();
  const child = spawn(process.execPath, [UAS_BIN, ...args, ...flags, '--', ...command], {
    cwd: join(INTEGRATIONS, cwd),
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Math.round(performance.now() - started);
      try {
        resolve({ code, report: JSON.parse(stdout) as LanguageOutcome['report'], stderr, ms });
      } catch {
        reject(new Error(`uas check printed no report (exit ${code}): ${stdout}\n${stderr}`));
      }
    });
  });
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

/** What each case raised, for a failure's message. */
export const explain = ({ report, stderr }: LanguageOutcome): string =>
  `${JSON.stringify(report.findings, null, 1)}\n${stderr}`;

/** How a language's backends are run: their folder, their test command, and the cases. */
export interface LanguageSuite {
  /** Whether its toolchain is here (requireTool decides whether a missing one fails). */
  present: boolean;
  /** Its folder under fixtures/integrations. */
  folder: string;
  /** The test command of a variant, run in that folder. */
  command: (variant: string) => string[];
  env?: Record<string, string>;
  cases: LanguageCase[];
}

const RETRY_RULES: RuleId[] = [
  'retry-before-retry-after',
  'retry-cap-exceeded',
  'ignores-429',
  'retry-without-backoff',
  'retry-without-jitter',
];

/** The tests of one language: each case raises exactly its rules, and its own tests pass. */
export function describeLanguage(name: string, suite: LanguageSuite): void {
  describe.skipIf(!suite.present)(`uas check on the ${name} merchant backends`, () => {
    it.each(suite.cases.map((test) => [test.variant, test.chaos, test] as const))(
      'the %s backend under --chaos %s raises exactly its rules, its own tests passing',
      async (variant, chaos, test) => {
        const command = suite.command(variant);
        const outcome = await checkCommand(suite.folder, command, chaos, suite.env);
        const { code, report } = outcome;
        const failed = report.findings.map((finding) => finding.rule).sort();
        expect(failed, explain(outcome)).toEqual([...test.rules].sort());
        expect(report.summary.command?.exit_code, explain(outcome)).toBe(0);
        expect(code, explain(outcome)).toBe(test.rules.length === 0 ? 0 : 1);
        const statuses = Object.fromEntries(report.rules.map((rule) => [rule.rule, rule.status]));
        // A correct backend passes what its run exercised, and the run exercised each rule it
        // is there for: every retry rule when every request is refused, the 4xx of the mistyped
        // code and the caller_id rules when none is.
        const exercised: RuleId[] =
          test.rules.length > 0
            ? []
            : chaos === 1
              ? RETRY_RULES
              : ['retry-on-client-error', 'caller-id-shared', 'caller-id-per-request'];
        for (const rule of exercised) expect(statuses[rule], rule).toBe('passed');
      },
      240_000,
    );
  });
}
