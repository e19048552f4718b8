import { assembleEmulator } from './assemble-emulator.js';
import { resolveConfig } from './config/config.js';
import type {
  CoreEmulatorOptions,
  CoreSharedEmulatorOptions,
  Emulator,
  SharedEmulator,
} from './emulator.js';
import { toSharedEmulator } from './shared-emulator.js';
import { createMemoryStore } from './store/memory-store.js';

/**
 * Creates the core of an emulator over the given config, clock and random source, its buckets
 * and codes in this process's memory. Throws a ConfigError for a bad config. (`createEmulator`
 * of `uas` gives it defaults and the providers of `/__uas/check` and `/__uas/openapi.json`.)
 */
export function createCoreEmulator(options: CoreEmulatorOptions): Emulator {
  const config = resolveConfig(options.config);
  // The memory store answers every call at once: this emulator is synchronous throughout.
  return assembleEmulator(options, config, createMemoryStore(config)) as Emulator;
}

/**
 * Creates the core of an emulator whose buckets and codes are in a store shared with other
 * instances: they behave as one emulator (buckets exact across them, a code verifies on any, a
 * config change or reset reaches all). Every answer is a promise. Throws a ConfigError for a bad
 * config.
 */
export function createCoreSharedEmulator(options: CoreSharedEmulatorOptions): SharedEmulator {
  return toSharedEmulator(assembleEmulator(options, resolveConfig(options.config), options.store));
}
