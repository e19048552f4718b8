import { describe, expect, it } from 'vitest';
import { DEMO_CONFIG } from '../demo-config.js';
import { createCoreEmulator } from './create-core-emulator.js';
import type { CoreEmulatorOptions } from './emulator.js';
import { createManualClock } from './time/clock.js';
import { createSeededRandom } from './time/random.js';

const make = (options: Partial<Record<keyof CoreEmulatorOptions, unknown>>) => () =>
  createCoreEmulator({
    config: DEMO_CONFIG,
    clock: createManualClock(0),
    random: createSeededRandom(1),
    ...options,
  } as CoreEmulatorOptions);

describe('the options of an emulator', () => {
  it.each<[string, Record<string, unknown>, ErrorConstructor, RegExp]>([
    [
      'a random that is a function, as Math.random is (every start answered 500)',
      { random: () => 0.5 },
      TypeError,
      /createEmulator: random must have next\(\), as createSeededRandom\(seed\) gives; got a function/,
    ],
    [
      'a clock without now()',
      { clock: 5 },
      TypeError,
      /createEmulator: clock must have now\(\), as createManualClock\(start\) gives; got 5/,
    ],
    [
      'a clock whose now() is no time (a code issued then could not be listed)',
      { clock: { now: () => 'x' } },
      TypeError,
      /createEmulator: clock.now\(\) must give ms since the epoch, from 0000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z; got "x"/,
    ],
    [
      'an event queue of NaN bytes (no bound)',
      { eventQueueBytes: NaN },
      Error,
      /eventQueueBytes: expected a whole number from 1/,
    ],
    [
      'a negative number of event readers',
      { maxEventReaders: -1 },
      Error,
      /maxEventReaders: expected a whole number from 0/,
    ],
    [
      'a number of event readers given as text (no bound)',
      { maxEventReaders: '2' },
      Error,
      /maxEventReaders: expected a number; got "2"/,
    ],
  ])('refuses %s, naming it', (_what, options, kind, why) => {
    expect(make(options)).toThrow(kind);
    expect(make(options)).toThrow(why);
  });

  it('takes the clocks and counts it documents', () => {
    expect(make({ clock: Date, eventQueueBytes: 1, maxEventReaders: 0 })).not.toThrow();
  });
});
