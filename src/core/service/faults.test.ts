import { describe, expect, it } from 'vitest';
import { isConfigError } from '../config/config-error.js';
import { createFaultQueue } from './faults.js';

/** The messages a fault body is refused with. */
function refusal(body: unknown): string[] {
  try {
    createFaultQueue().add(body);
  } catch (error) {
    if (isConfigError(error)) return error.issues.map((issue) => issue.message);
    throw error;
  }
  return [];
}

describe('createFaultQueue', () => {
  it('names the unit of retry_after and latency_ms in what it refuses', () => {
    expect(refusal({ status: 429, retry_after: 90_000 })).toEqual([
      'expected a whole number of seconds from 0 to 86400; got 90000',
    ]);
    expect(refusal({ latency_ms: '5s' })).toEqual([
      'expected a whole number of milliseconds; got "5s"',
    ]);
  });
});
