import {
  createEmulator as createCoreEmulator,
  type CoreEmulatorOptions,
  type Emulator,
} from './core/emulator.js';
import { DEMO_CONFIG } from './demo-config.js';
import { systemClock, systemRandom } from './runtime/system-clock.js';
import { VERSION } from './version.js';

/** Options of {@link createEmulator}; every field has a default. */
export type EmulatorOptions = Partial<CoreEmulatorOptions>;

/**
 * Creates an emulator. Defaults: the bundled demo config, the wall clock and Math.random.
 * Pass a manual clock (`createManualClock`) and a seeded random source for exact tests.
 */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  return createCoreEmulator({
    config: options.config ?? DEMO_CONFIG,
    clock: options.clock ?? systemClock,
    random: options.random ?? systemRandom,
    devApi: options.devApi,
    version: options.version ?? VERSION,
    eventQueueBytes: options.eventQueueBytes,
    maxEventReaders: options.maxEventReaders,
  });
}
