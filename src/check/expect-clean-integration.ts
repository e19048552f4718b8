import type { RequestRecord } from '../core/records/records.js';
import { assertCleanIntegration, type AssertCleanOptions } from './assert-clean-integration.js';
import type { CheckReport } from './check-report.js';

/** What `expectCleanIntegration` reads the requests of: an emulator, or the records themselves. */
export interface RequestSource {
  requests(): RequestRecord[];
  /** Requests the emulator's journal let go; the check must not judge half a run. */
  readonly requestsDropped?: number;
}

/**
 * Throws, with the report as its message, when what was sent to the emulator breaks a rule of
 * the spec at `failOn` or above; one line in a test suite's `afterAll`:
 * `afterAll(() => expectCleanIntegration(emulator))`. Throws too when the journal let requests
 * go (set `journal: { size: 'unbounded' }` for a suite that sends more than 1,000).
 */
export function expectCleanIntegration(
  source: RequestSource | readonly RequestRecord[],
  options: AssertCleanOptions = {},
): CheckReport {
  if (!Array.isArray(source)) {
    const emulator = source as RequestSource;
    const dropped = emulator.requestsDropped ?? 0;
    if (dropped > 0)
      throw new Error(
        `the emulator's journal let ${dropped} requests go, so the check would judge part of the run: create it with config.journal.size "unbounded"`,
      );
    return assertCleanIntegration(emulator.requests(), options);
  }
  return assertCleanIntegration(source as readonly RequestRecord[], options);
}
