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

  it('refuses a fault past the most it holds at once, naming the bound, and keeps the others', () => {
    const queue = createFaultQueue(2);
    queue.add({ status: 503 });
    queue.add({ status: 500 });
    expect(() => queue.add({ status: 429 })).toThrow(
      '2 faults are scripted already; clear them or let them apply',
    );
    expect(queue.list().map((fault) => fault.status)).toEqual([503, 500]);
    queue.take('start');
    expect(queue.add({ status: 429 }).status).toBe(429);
  });
});
