import { fileURLToPath } from 'node:url';
import type { RuleId } from '../../src/check/check-report.js';

// The fixture integrations under fixtures/integrations, with the flags that make the rules each
// raises independent of luck: `--chaos 0` where only caller_ids are judged (no 429 at all, so no
// retry is timed), `--chaos 1` where retries are judged (every request is refused, with a
// Retry-After of 1 to 2 s, 1 to 5 s where a fixed wait must be caught, so every shopper retries), `--limits tight` where a bucket must empty. Randomness of the fixtures themselves (jitter) is seeded per shopper. docs/check.md shows this
// list as a table, and a test holds the two together.

export const FIXTURES = fileURLToPath(new URL('../../fixtures/integrations/', import.meta.url));
/** Roomy buckets: a static caller_id shared by four shoppers empties none. */
export const ROOMY = ['-c', `${FIXTURES}uas.config.json`];

export interface FixtureCase {
  fixture: string;
  flags: string[];
  /** The rules that fail, in any order; none for the correct integration. */
  rules: RuleId[];
}

// Longest first, so that a pool running them ends soonest.
export const FIXTURE_CASES: FixtureCase[] = [
  { fixture: 'retry-more-than-3-attempts', flags: ['--chaos', '1'], rules: ['retry-cap-exceeded'] },
  { fixture: 'retry-without-jitter', flags: ['--chaos', '1'], rules: ['retry-without-jitter'] },
  { fixture: 'correct', flags: ['--limits', 'tight', '--chaos', '1'], rules: [] },
  { fixture: 'retry-fixed-delay', flags: ['--chaos', '1'], rules: ['retry-without-backoff'] },
  { fixture: 'correct', flags: ['--limits', 'tight'], rules: [] },
  {
    fixture: 'retry-before-retry-after',
    flags: ['--chaos', '1'],
    rules: ['retry-before-retry-after'],
  },
  {
    fixture: 'retry-after-ignored',
    // 1 to 5 s: a fixed 1-s wait is early at 4 injected 429s in 5, not 1 in 2 (check's 1-2 s).
    flags: ['--chaos', '1', '--chaos-retry-after', '1-5'],
    rules: ['retry-before-retry-after', 'retry-without-jitter'],
  },
  { fixture: 'resend-after-4xx', flags: ['--chaos', '0'], rules: ['retry-on-client-error'] },
  {
    fixture: 'hammer-empty-bucket',
    flags: ['--chaos', '0', '--limits', 'tight'],
    rules: ['ignores-429'],
  },
  { fixture: 'no-caller-id', flags: ['--chaos', '0'], rules: ['caller-id-missing'] },
  { fixture: 'caller-id-in-header', flags: ['--chaos', '0'], rules: ['caller-id-wrong-place'] },
  {
    fixture: 'caller-id-in-query-of-post',
    flags: ['--chaos', '0'],
    rules: ['caller-id-wrong-place'],
  },
  { fixture: 'caller-id-misspelt', flags: ['--chaos', '0'], rules: ['caller-id-wrong-place'] },
  { fixture: 'static-caller-id', flags: [...ROOMY, '--chaos', '0'], rules: ['caller-id-shared'] },
  {
    fixture: 'proxy-address-caller-id',
    flags: [...ROOMY, '--chaos', '0'],
    rules: ['caller-id-internal-ip', 'caller-id-shared'],
  },
  { fixture: 'random-caller-id', flags: ['--chaos', '0'], rules: ['caller-id-per-request'] },
  { fixture: 'email-caller-id', flags: ['--chaos', '0'], rules: ['caller-id-is-email'] },
  { fixture: 'wrong-token', flags: ['--chaos', '0'], rules: ['unauthenticated'] },
];
