import type { BucketView } from '../../src/core/limits/bucket-view.js';

/** A bucket as the dev API reports it, for screen tests: a caller bucket of 5 tokens at 1/s. */
export function bucketView(key: string, overrides: Partial<BucketView> = {}): BucketView {
  return {
    key,
    level: 'caller',
    client_id: 'demo',
    caller_id: key,
    tokens: 1,
    remaining: 1,
    burst: 5,
    rate: '1/s',
    allowed: 1,
    rejected: 0,
    shadow_rejected: 0,
    last_seen: '2026-01-01T00:00:00.000Z',
    next_token_ms: 0,
    full_in_ms: 0,
    ...overrides,
  };
}
