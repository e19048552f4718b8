import { blankRecord } from '../../src/core/service/request-facts.js';
import type { RequestRecord } from '../../src/core/records/records.js';

/** A request record for tests: an allowed exists of client demo, with `overrides`. */
export function requestRecord(overrides: Partial<RequestRecord> = {}): RequestRecord {
  return {
    ...blankRecord(1, 0, 'GET', '/v1/users/exists'),
    operation: 'exists',
    client_id: 'demo',
    status: 200,
    outcome: 'allowed',
    ...overrides,
  };
}
