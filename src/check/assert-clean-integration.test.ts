import { describe, expect, it } from 'vitest';
import { politeShoppers, recordMaker } from '../../test/helpers/check-records.js';
import { assertCleanIntegration } from './assert-clean-integration.js';
import { CheckFailedError, isCheckFailedError } from './check-failed-error.js';
import { checkIntegration } from './check-integration.js';
import { formatReportText } from './format-report-text.js';
import { NO_COLORS } from './report-colors.js';

const make = recordMaker();
const withWarning = [make({ at: 0, email: 'a@example.com', callerId: '127.0.0.1' })];
const withError = [make({ at: 0, email: 'a@example.com' })];

describe('assertCleanIntegration', () => {
  it('returns the report of a clean integration', () => {
    const records = politeShoppers();
    expect(assertCleanIntegration(records)).toEqual(checkIntegration(records));
  });

  it('throws the plain-text report when there is an error finding', () => {
    let thrown: unknown;
    try {
      assertCleanIntegration(withError);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CheckFailedError);
    expect(isCheckFailedError(thrown)).toBe(true);
    const failure = thrown as CheckFailedError;
    expect(failure.message).toBe(formatReportText(checkIntegration(withError), NO_COLORS));
    expect(failure.message).toContain('error caller-id-missing');
    expect(failure.report.findings[0]?.rule).toBe('caller-id-missing');
  });

  it('lets warnings pass by default, and fails on them with failOn warn', () => {
    expect(assertCleanIntegration(withWarning).findings).toHaveLength(1);
    expect(() => assertCleanIntegration(withWarning, { failOn: 'warn' })).toThrow(
      /warn {2}caller-id-internal-ip/,
    );
  });

  it('passes options through to the check', () => {
    const shared = ['a', 'b', 'c'].map((user, index) =>
      make({ at: index, email: `${user}@example.com`, callerId: 'static' }),
    );
    expect(() => assertCleanIntegration(shared)).not.toThrow();
    expect(() => assertCleanIntegration(shared, { sharedCallerIdMaxEndUsers: 2 })).toThrow(
      /caller-id-shared/,
    );
  });

  it('refuses an unknown failOn', () => {
    expect(() => assertCleanIntegration([], { failOn: 'info' as 'warn' })).toThrow(
      `failOn must be 'error' or 'warn'; got "info"`,
    );
  });

  it('tells other errors from a failed check', () => {
    expect(isCheckFailedError(new Error('x'))).toBe(false);
    expect(isCheckFailedError('caller-id-missing')).toBe(false);
  });
});
