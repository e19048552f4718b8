import * as z from 'zod/mini';
import { checked, text, whole } from './schema-kit.js';

/**
 * Where `uas serve` keeps buckets and codes (docs/redis.md): read by
 * the server, not by the core, which takes a store already connected.
 */
export function storeSchema() {
  const where = text(
    /^(memory$|redis$|redis:\/\/|rediss:\/\/|unix:\/\/)/,
    'expected "memory", "redis" (a local redis-server started for it), a redis:// or rediss:// URL (a Redis Cluster: redis://host:port?cluster=1&seed=host:port), or unix:///path/to/redis.sock',
    2048,
  );
  const store = z.strictObject({
    url: z.optional(where),
    prefix: z.optional(
      text(/^[A-Za-z0-9_.-]{1,64}$/, 'expected 1 to 64 letters, digits, "_", "." or "-"', 64),
    ),
    onError: z.optional(z.enum(['open', 'closed'])),
    timeoutMs: z.optional(whole(10, 60_000, 'milliseconds')),
  });
  // Said as such, rather than as a missing field: prefix, onError and timeoutMs need a url.
  return checked(store, (value) =>
    value.url === undefined
      ? 'url is missing: give "redis" (a local redis-server started for it), a redis:// URL or unix:///path/to/redis.sock (or "memory", or leave "store" out)'
      : undefined,
  );
}
