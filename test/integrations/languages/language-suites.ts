import type { RuleId } from '../../../src/check/check-report.js';

// The merchant backends in other languages under fixtures/integrations/<folder>/, each with its
// own test command, and the runs of `uas check` over them with the rules each must raise. The
// tests (python.test.ts, go.test.ts, java.test.ts) run them; docs/languages.md and README show
// them, and language-docs.test.ts holds the pages to this list.

/** One run of `uas check` over a backend's test command, and the rules it must raise. */
export interface LanguageCase {
  /** `correct` or `wrong`. */
  variant: 'correct' | 'wrong';
  /**
   * With `-c languages.config.json` (roomy buckets, injected 429s asking for 1 to 2 s), the
   * probability of an injected 429: 0 judges caller_ids and 4xx, 1 every retry rule. `default`:
   * neither flag, as README shows it (the bundled config, `--chaos 0.2`).
   */
  chaos: 0 | 1 | 'default';
  /** The rules that fail, in any order; none for the correct backend. */
  rules: RuleId[];
}

/** A language's backends: their folder, their test command, and the runs. */
export interface LanguageSuite {
  name: string;
  /** Its folder under fixtures/integrations, where the command runs. */
  folder: string;
  /** The test command of a variant, as the pages show it. */
  command: (variant: LanguageCase['variant']) => string[];
  cases: LanguageCase[];
}

export const PYTHON: LanguageSuite = {
  name: 'Python',
  folder: 'python',
  command: (variant) => ['python3', '-m', 'pytest', '-q', `test_${variant}.py`],
  cases: [
    { variant: 'correct', chaos: 'default', rules: [] },
    { variant: 'correct', chaos: 0, rules: [] },
    { variant: 'correct', chaos: 1, rules: [] },
    { variant: 'wrong', chaos: 0, rules: ['caller-id-missing', 'retry-on-client-error'] },
    {
      variant: 'wrong',
      chaos: 1,
      rules: ['caller-id-missing', 'retry-without-backoff', 'retry-without-jitter'],
    },
  ],
};

export const GO: LanguageSuite = {
  name: 'Go',
  folder: 'go',
  command: (variant) => ['go', 'test', '-count=1', `./${variant}`],
  cases: [
    { variant: 'correct', chaos: 'default', rules: [] },
    { variant: 'correct', chaos: 0, rules: [] },
    { variant: 'correct', chaos: 1, rules: [] },
    {
      variant: 'wrong',
      chaos: 1,
      rules: ['retry-before-retry-after', 'retry-cap-exceeded', 'retry-without-jitter'],
    },
  ],
};

export const JAVA: LanguageSuite = {
  name: 'Java',
  folder: 'java',
  command: (variant) => ['java', 'Checkout.java', variant],
  cases: [
    { variant: 'correct', chaos: 'default', rules: [] },
    { variant: 'correct', chaos: 0, rules: [] },
    { variant: 'correct', chaos: 1, rules: [] },
    { variant: 'wrong', chaos: 1, rules: ['caller-id-shared', 'retry-without-jitter'] },
  ],
};

export const LANGUAGE_SUITES = [PYTHON, GO, JAVA];

/** The flags of a case, as the pages write them (run from the backend's folder). */
export const flagsOf = ({ chaos }: LanguageCase): string[] =>
  chaos === 'default' ? [] : ['-c', '../languages.config.json', '--chaos', String(chaos)];
