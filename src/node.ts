// Public API of `uas/node`: what needs Node's built-ins. The node:http server of the emulator
// (the default engine of `uas serve`) and the helpers that derive a caller_id from forwarding
// headers in a merchant's Node backend; and the Redis store that instances share (its client,
// ioredis, an optional peer dependency, is loaded only when a store connects).
export { listen } from './adapters/http/index.js';
export type { EmulatorHttpServer, HttpServerOptions } from './adapters/http/index.js';
export {
  callerIdFromHeaders,
  callerIdFromForwardedFor,
  normalizeAddress,
  TRUSTED_PRESETS,
} from './client/caller-id.js';
export type { CallerIdOptions, CallerIdResult, ChainEntry } from './client/caller-id.js';
export { connectRedisStore } from './store/redis/redis-store.js';
export type {
  RedisStore,
  RedisStoreOptions,
  StoreErrorMode,
  StoreStatus,
} from './store/redis/redis-store.js';
export { createSharedEmulator } from './emulator.js';
export type { SharedEmulatorOptions } from './emulator.js';
export type { SharedEmulator } from './core/emulator.js';
