import { describe, expect, it } from 'vitest';
import { isConfigError } from '../config/config-error.js';
import { createCoreEmulator } from '../create-core-emulator.js';
import { createManualClock } from '../time/clock.js';
import { createSeededRandom } from '../time/random.js';
import { DEMO_CONFIG } from '../../demo-config.js';
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
        new RegExp(`^invalid fault: ${field}: unknown field; in JavaScript it is ${spelling}$`),
      );
    },
  );

  it('keeps a field it does not know, so that the fault is refused naming it', () => {
    expect(() =>
      createFaultQueue().add(faultBody({ status: 503, retryafter: 3 } as FaultSpec)),
    ).toThrow(/retryafter: unknown field/);
  });
});

describe('failNext in process', () => {
  it.each<[FaultSpec, string]>([
    [
      { latencyMs: -1 },
      'invalid fault: latencyMs: expected a whole number of milliseconds from 0 to 3600000; got -1',
    ],
    [
      { status: 429, retryAfter: 90_000 },
      'invalid fault: retryAfter: expected a whole number of seconds from 0 to 86400; got 90000',
    ],
    [{}, 'invalid fault: give a status (429, 500, 503), a latencyMs, or both'],
    [
      { status: 503, latency: 5 } as FaultSpec,
      'invalid fault: latency: unknown field (did you mean "latencyMs"?)',
    ],
  ])(
    'refuses %j in the terms the spec was written in, where it named latency_ms and an invalid config',
    (spec, message) => {
      const emulator = createCoreEmulator({
        config: DEMO_CONFIG,
        clock: createManualClock(0),
        random: createSeededRandom(1),
      });
      expect(() => emulator.failNext(spec)).toThrow(message);
      expect(emulator.faults()).toEqual([]);
    },
  );
});
