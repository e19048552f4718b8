import { describe, expect, it } from 'vitest';
import { hostileRecords, politeShoppers } from '../../test/helpers/check-records.js';
import { checkIntegration } from './check-integration.js';
import { formatReportText } from './format-report-text.js';
import { NO_COLORS, type ReportColors } from './report-colors.js';

// Marks each style so a test can see where colour went.
const TAGGED: ReportColors = {
  red: (text) => `<red>${text}</red>`,
  yellow: (text) => `<yellow>${text}</yellow>`,
  green: (text) => `<green>${text}</green>`,
  dim: (text) => `<dim>${text}</dim>`,
  bold: (text) => `<bold>${text}</bold>`,
};

describe('formatReportText', () => {
  const report = checkIntegration(hostileRecords());
  const text = formatReportText(report, NO_COLORS);

  it('lists findings worst first, each with its message, evidence, spec, link to its rule and fix', () => {
    const headings = [
      'error caller-id-missing',
      'error caller-id-shared',
      'warn  caller-id-internal-ip',
    ].map((heading) => text.indexOf(`${heading}\n`));
    expect(headings.every((position) => position >= 0)).toBe(true);
    expect([...headings].sort((a, b) => a - b)).toEqual(headings);
    expect(text).toContain(
      'error caller-id-missing\n' +
        '  1 request of 6 sent no caller_id, so they shared the client bucket\n' +
        '  evidence: 1 (judged 6); requests #1\n' +
        '    exists: 1\n' +
        '    #1 2026-01-01T00:00:00.000Z GET /v1/users/exists 200 {"email":"victim@example.com"}\n' +
        '  spec: §1 (no caller_id: the client-level bucket, shared by all end-users of the client) and §4 rule 1\n' +
        '  docs: docs/check-rules.md#caller-id-missing\n' +
        '  fix: Send caller_id on every request',
    );
    expect(text).toContain('    127.0.0.1 (loopback)');
  });

  it('ends with one summary line of the verdict and what was checked', () => {
    expect(text.split('\n').at(-1)).toBe(
      'uas check: 2 errors, 1 warning, 3 passed, 8 not exercised; 6 requests (exists 6), 6 end-users, 2 caller_ids, 0 answered 429, 6 logical requests (0 retried) over 0.0 s',
    );
  });

  it('lists the rules not exercised with their reasons, and those passed', () => {
    expect(text).toContain(
      'Not exercised\n  - caller-id-per-request: no end-user sent 3 or more requests with a caller_id\n',
    );
    expect(text).toContain('\nPassed unauthenticated, caller-id-wrong-place, caller-id-is-email\n');
  });

  it('escapes control characters that came from requests', () => {
    expect(text).toContain('    \\x1b]0;pwned\\x07<b>&"x"</b>');
    // eslint-disable-next-line no-control-regex -- the point of the test
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('colours severities, verdicts and labels with the functions it is given', () => {
    const coloured = formatReportText(report, TAGGED);
    expect(coloured).toContain('<red><bold>error</bold></red> <bold>caller-id-missing</bold>');
    expect(coloured).toContain('<yellow>warn </yellow> <bold>caller-id-internal-ip</bold>');
    expect(coloured).toContain(
      '<red>2 errors</red>, <yellow>1 warning</yellow>, <green>3 passed</green>, <dim>8 not exercised</dim>',
    );
  });

  it('shows retry delays when there were retries, and says a clean run is clean', () => {
    const clean = formatReportText(checkIntegration(politeShoppers()), NO_COLORS);
    expect(clean).toMatch(
      /^retry delays min \d+ ms, median \d+ ms, max \d+ ms \(\d+\); beyond Retry-After min/m,
    );
    expect(clean.split('\n').at(-1)).toMatch(/^uas check: 0 errors, 0 warnings, \d+ passed/);
    expect(clean).not.toMatch(/^(error|warn) /m);
  });

  it('says retry delays far from Retry-After in units, not in fifteen-digit milliseconds', () => {
    const report = checkIntegration(politeShoppers());
    const far = { min: -999_999_999_999_991, median: -86_400_000, max: 1_500, count: 3 };
    const text = formatReportText(
      {
        ...report,
        summary: {
          ...report.summary,
          retry_delay_ms: { min: 9, median: 125_000, max: 1e15, count: 3 },
          retry_delay_beyond_retry_after_ms: far,
        },
      },
      NO_COLORS,
    );
    expect(text).toContain(
      'retry delays min 9 ms, median 2 min 5 s, max 31,688 years (3); beyond Retry-After min -31,688 years, median -1 d 0 h, max 1500 ms (3)',
    );
  });
});
