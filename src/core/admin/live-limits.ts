import type { ResolvedConfig } from '../config/config.js';
import { NO_PAST, pastAfterChange, type PastPolicies } from '../limits/past-policies.js';

/**
 * `next`, the config a live change makes of `current` at `at`, with what each level's buckets
 * followed before: a bucket is settled at the old limits up to the change, at the new ones after
 * it (a full bucket stays full; tokens above a lowered burst are cut to it).
 */
export function changeLimitsAt(
  current: ResolvedConfig,
  next: ResolvedConfig,
  at: number,
): ResolvedConfig {
  return withPastPolicies(next, {
    client: pastAfterChange(current.limits.client, next.limits.client, at),
    caller: pastAfterChange(current.limits.caller, next.limits.caller, at),
  });
}

/** A config whose levels follow `past` before their current limits. */
export function withPastPolicies(config: ResolvedConfig, past: PastPolicies): ResolvedConfig {
  const { limits } = config;
  return {
    ...config,
    limits: {
      ...limits,
      client: { ...limits.client, past: past.client },
      caller: { ...limits.caller, past: past.caller },
    },
  };
}

/** What each level of a config followed before its current limits. */
export function pastPoliciesOf(config: ResolvedConfig): PastPolicies {
  return {
    client: config.limits.client.past ?? NO_PAST,
    caller: config.limits.caller.past ?? NO_PAST,
  };
}
