// Types of the public surface of the Redis store, in a file of their own: a consumer's
// type-check of `uas/node` must not reach the modules that name ioredis's types.

/** What a store does with a bucket decision while Redis cannot be reached. */
export type StoreErrorMode = 'open' | 'closed';

/** Redis went away (`down`), or is back (`up`). */
export type StoreStatus = { state: 'down'; error: string } | { state: 'up' };
