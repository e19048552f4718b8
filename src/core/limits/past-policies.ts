import type { Level } from './bucket-key.js';
import { NO_PAST, type BucketPolicy, type PastPolicy } from '../config/bucket-policy.js';
import { isDateTime } from '../time/clock.js';

/** The policies each level followed before its live changes (see {@link BucketPolicy.past}). */
export type PastPolicies = Record<Level, readonly PastPolicy[]>;

export { NO_PAST } from '../config/bucket-policy.js';

/**
 * The most past policies a level keeps. Only changes made closer together than a bucket takes to
 * refill from empty pile up (see {@link pastAfterChange}); past this many, the oldest is dropped.
 */
export const MAX_PAST_POLICIES = 32;

/** Whether two policies fill a bucket alike. */
function samePolicy(a: BucketPolicy, b: BucketPolicy): boolean {
  return a.burst === b.burst && a.refillPerMs === b.refillPerMs;
}

/**
 * The past policies of a level whose policy changes from `before` to `after` at `at`: `before`
 * is settled up to `at`. A policy that stayed in force for as long as an empty bucket takes to
 * fill left every bucket full, so what came before it no longer matters and is dropped; a change
 * dated before earlier ones (a manual clock set back) drops those.
 */
export function pastAfterChange(
  before: BucketPolicy,
  after: BucketPolicy,
  at: number,
): readonly PastPolicy[] {
  const past = (before.past ?? NO_PAST).filter((era) => era.until < at + 1);
  if (samePolicy(before, after)) return past;
  const until = changeInstant(past, at);
  const all = [...past, { burst: before.burst, refillPerMs: before.refillPerMs, until }];
  let first = Math.max(0, all.length - MAX_PAST_POLICIES);
  for (let index = 1; index < all.length; index++) {
    const era = all[index] as PastPolicy;
    const start = (all[index - 1] as PastPolicy).until;
    if (era.until - start >= era.burst / era.refillPerMs) first = Math.max(first, index);
  }
  return all.slice(first);
}

/**
 * How far apart changes made within one millisecond are dated (exact in binary at any time of
 * the clock's range up to the year 2248), so that their order stays known; see {@link changeInstant}.
 */
export const SAME_INSTANT_STEP = 1 / 1024;

/**
 * When a change at `at` is dated. A change made at the instant of the one before (a burst
 * lowered, then raised, in the same millisecond) is dated a step after it: otherwise the policy
 * between them would last no time and a bucket updated at that instant could not tell whether
 * it was updated before the two (its tokens cut to that burst) or after them (not cut). A bucket
 * updated after a change is dated no earlier than it ({@link writtenAt}). After about a thousand
 * changes in one millisecond, the oldest of them are forgotten.
 */
function changeInstant(past: readonly PastPolicy[], at: number): number {
  const last = past[past.length - 1]?.until;
  return last !== undefined && last >= at ? last + SAME_INSTANT_STEP : at;
}

/**
 * The time a bucket updated at `now` under `policy` is stored as: `now`, or the date of the last
 * live change when that change was made within the same millisecond and dated after `now` by
 * {@link changeInstant}, so that the update counts as after it (the Redis script does the same).
 */
export function writtenAt(now: number, policy: BucketPolicy): number {
  const last = policy.past?.[policy.past.length - 1]?.until;
  return last !== undefined && last > now && last < now + 1 ? last : now;
}

/**
 * Past policies read from outside this process (another instance, through the shared store):
 * undefined unless each level holds at most {@link MAX_PAST_POLICIES} policies of a positive
 * whole burst and a positive finite rate, in order of time.
 */
export function readPastPolicies(value: unknown): PastPolicies | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { client, caller } = value as Record<string, unknown>;
  const levels = [readLevel(client), readLevel(caller)] as const;
  if (levels[0] === undefined || levels[1] === undefined) return undefined;
  return { client: levels[0], caller: levels[1] };
}

function readLevel(value: unknown): readonly PastPolicy[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_PAST_POLICIES) return undefined;
  const past: PastPolicy[] = [];
  for (const entry of value as unknown[]) {
    if (typeof entry !== 'object' || entry === null) return undefined;
    const { burst, refillPerMs, until } = entry as Record<string, unknown>;
    if (
      typeof burst !== 'number' ||
      !Number.isSafeInteger(burst) ||
      burst < 1 ||
      typeof refillPerMs !== 'number' ||
      !(refillPerMs > 0 && refillPerMs < Infinity) ||
      typeof until !== 'number' ||
      !isDateTime(until) ||
      until < (past[past.length - 1]?.until ?? until)
    )
      return undefined;
    past.push({ burst, refillPerMs, until });
  }
  return past.length === 0 ? NO_PAST : past;
}
