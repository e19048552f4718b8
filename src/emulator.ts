import { createCoalescedCheck } from './check/check-answer.js';
import { servedDocument } from './contract/served-document.js';
import type { DevApiProviders } from './core/admin/dev-api-providers.js';
import { createCoreEmulator, createCoreSharedEmulator } from './core/create-core-emulator.js';
import type { CoreEmulatorOptions, Emulator, SharedEmulator } from './core/emulator.js';
import type { EmulatorStore } from './core/store/emulator-store.js';
import { DEMO_CONFIG } from './demo-config.js';
import { systemClock, systemRandom } from './runtime/system-clock.js';
import { VERSION } from './version.js';

/** Options of {@link createEmulator}; every field has a default. */
export type EmulatorOptions = Partial<Omit<CoreEmulatorOptions, 'providers'>>;

/** Options of {@link createSharedEmulator}: those of {@link createEmulator}, and the store. */
export interface SharedEmulatorOptions extends EmulatorOptions {
  /** A store shared with other instances, connected (see `uas/node`'s `connectRedisStore`). */
  store: EmulatorStore;
}

/**
 * What the core's dev API needs from above it: `uas check` on the journal for `GET /__uas/check`
 * (one per emulator, so that concurrent checks of its journal are computed once), and the OpenAPI
 * documents of `GET /__uas/openapi.json`.
 */
function providers(): DevApiProviders {
  return { checkReport: createCoalescedCheck(), servedDocument };
}

/**
 * Creates an emulator. Defaults: the bundled demo config, the wall clock and Math.random.
 * Pass a manual clock (`createManualClock`) and a seeded random source for exact tests.
 */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(
      `createEmulator takes an object of options (config, clock, ...), or none; got ${String(options)}`,
    );
  return createCoreEmulator(withDefaults(options));
}

/**
 * Creates an emulator over a store shared with other instances (`connectRedisStore` of
 * `uas/node`): they behave as one. Every answer is a promise. Defaults as {@link createEmulator}.
 */
export function createSharedEmulator(options: SharedEmulatorOptions): SharedEmulator {
  return createCoreSharedEmulator({ ...withDefaults(options), store: options.store });
}

function withDefaults(options: EmulatorOptions): CoreEmulatorOptions {
  return {
    config: options.config ?? DEMO_CONFIG,
    clock: options.clock ?? systemClock,
    random: options.random ?? systemRandom,
    devApi: options.devApi,
    version: options.version ?? VERSION,
    eventQueueBytes: options.eventQueueBytes,
    maxEventReaders: options.maxEventReaders,
    moreMetrics: options.moreMetrics,
    providers: providers(),
  };
}
