import { describe, expect, it } from 'vitest';
import { createDevClient } from './dev-client/dev-client.js';
import { createEmulator } from './emulator.js';
import type { FaultSpec } from './core/service/faults.js';

// From JavaScript, anything may come where an object of options is due: each says what it takes
// rather than `Cannot read properties of null`.
describe('arguments that are not an object of options', () => {
  it('createEmulator(null) is a TypeError naming what it takes', () => {
    expect(() => createEmulator(null as never)).toThrow(
      new TypeError(
        'createEmulator takes an object of options (config, clock, ...), or none; got null',
      ),
    );
  });

  it('failNext() without a fault is a TypeError, and no fault is added', () => {
    const emulator = createEmulator();
    expect(() => emulator.failNext(undefined as unknown as FaultSpec)).toThrow(
      new TypeError(
        "failNext takes a fault, such as { operation: 'start', status: 503 }; got undefined",
      ),
    );
    expect(emulator.faults()).toEqual([]);
  });

  it('createDevClient(url, null) is a TypeError naming what it takes', () => {
    expect(() => createDevClient('http://127.0.0.1:4010', null as never)).toThrow(
      new TypeError(
        'createDevClient takes an object of options (adminToken, ...), or none; got null',
      ),
    );
  });
});
