import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../core/records/records.js';
import { assertCleanIntegration } from './assert-clean-integration.js';
import { checkIntegration } from './check-integration.js';
import { CHECK_DEFAULTS, resolveCheckOptions, type CheckOptions } from './check-options.js';

describe('resolveCheckOptions', () => {
  it('fills in every default and keeps what was given', () => {
    expect(resolveCheckOptions()).toEqual(CHECK_DEFAULTS);
    expect(resolveCheckOptions({ maxAttempts: 5, perRequestRatio: 1 })).toMatchObject({
      maxAttempts: 5,
      perRequestRatio: 1,
      resendWindowMs: 30_000,
    });
  });

  it('names an option that is not a number in its range', () => {
    expect(() => resolveCheckOptions({ resendWindowMs: -1 })).toThrow(
      'check option resendWindowMs must be a finite number of milliseconds, at least 0; got -1',
    );
    expect(() => resolveCheckOptions({ retryPatternShare: 0 })).toThrow(
      'check option retryPatternShare must be a number above 0 and at most 1; got 0',
    );
    expect(() => resolveCheckOptions({ maxAttempts: 2.5 })).toThrow(
      'check option maxAttempts must be a whole number of at least 1; got 2.5',
    );
    expect(() => resolveCheckOptions({ herdWindowMs: Infinity })).toThrow(/herdWindowMs/);
  });

  it('refuses an option it does not take, which would leave its default in force unseen', () => {
    const misspelt = { maxAttempt: 5 } as unknown as CheckOptions;
    expect(() => resolveCheckOptions(misspelt)).toThrow(
      /^unknown check option "maxAttempt"; the options are maxAttempts, resendWindowMs, /,
    );
    expect(() => resolveCheckOptions(null as unknown as CheckOptions)).toThrow(
      'check options must be an object; got null',
    );
  });

  it('has checkIntegration refuse records that are not an array, saying what it takes', () => {
    expect(() => checkIntegration(null as unknown as RequestRecord[])).toThrow(
      'checkIntegration expects the request records, an array (such as emulator.journal())',
    );
    expect(() => assertCleanIntegration([], { failOn: 'warn', maxAttemps: 4 } as never)).toThrow(
      /unknown check option "maxAttemps"/,
    );
  });
});
