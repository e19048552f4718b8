import { describe, expect, it } from 'vitest';
import { isConfigError } from '../config/config-error.js';
import { createFaultQueue, faultBody, type FaultSpec } from './faults.js';

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

describe('faultBody', () => {
  it.each([
    ['retry_after', { status: 503, retry_after: 30 }, 'retryAfter'],
    ['latency_ms', { latency_ms: 5000 }, 'latencyMs'],
  ])(
    'refuses the dev API spelling %s, naming the one it takes, where the value was dropped',
    (field, spec, spelling) => {
      const make = () => createFaultQueue().add(faultBody(spec as FaultSpec));
      expect(make).toThrow(
        new RegExp(`: ${field}: unknown field; in JavaScript it is ${spelling}$`),
      );
    },
  );

  it('keeps a field it does not know, so that the fault is refused naming it', () => {
    expect(() =>
      createFaultQueue().add(faultBody({ status: 503, retryafter: 3 } as FaultSpec)),
    ).toThrow(/retryafter: unknown field/);
  });
});
