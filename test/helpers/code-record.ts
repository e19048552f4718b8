import type { CodeRecord } from '../../src/core/records/records.js';

/** A one-time code record for tests: 123456 for alice@example.com, issued at noon, with `overrides`. */
export function codeRecord(overrides: Partial<CodeRecord> = {}): CodeRecord {
  return {
    merchant_id: 'm',
    email: 'alice@example.com',
    code: '123456',
    issued_at: '2026-01-01T12:00:00.000Z',
    expires_at: '2026-01-01T12:10:00.000Z',
    attempts_left: 5,
    used: false,
    ...overrides,
  };
}
