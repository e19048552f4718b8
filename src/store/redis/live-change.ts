import type { Level } from '../../core/limits/bucket-key.js';
import { NO_PAST, readPastPolicies } from '../../core/limits/past-policies.js';
import { parseRate, refillPerMs } from '../../core/config/rate.js';
import type { PastPolicy } from '../../core/limits/token-bucket.js';
import type { SharedChange } from '../../core/store/emulator-store.js';
import { parseJson } from './redis-decoders.js';

/** A live config change as instances send it and `uas:meta` keeps it. */
export type LiveChange = Extract<SharedChange, { type: 'config' }>;

/** The fields of `uas:meta` that keep a live change: its parts, and the limits before them. */
export function liveFields(change: LiveChange): { live: string; past: string } {
  return {
    live: JSON.stringify(change.live),
    past: JSON.stringify(change.past ?? null),
  };
}

/** The live change `uas:meta` keeps, or undefined when it keeps none. */
export function readLiveChange(meta: Record<string, string>): LiveChange | undefined {
  if (meta.live === undefined || meta.live === '') return undefined;
  return {
    type: 'config',
    live: parseJson(meta.live),
    past: meta.past === undefined ? undefined : parseJson(meta.past),
  };
}

/**
 * The version of the live state `uas:meta` keeps: how many live changes were kept there (0 for
 * none, and for a version that is not a whole number, as the script that keeps them reads it).
 */
export function readLiveVersion(meta: Record<string, string>, field = 'version'): number {
  const version = Number(meta[field] ?? '0');
  return Number.isInteger(version) && version >= 0 && version <= MOST_LIVE_VERSION ? version : 0;
}

/** The largest version of the live state read as one: its next is still exact (2^53 - 2). */
export const MOST_LIVE_VERSION = 9_007_199_254_740_990;

/**
 * Whether `uas:meta`, read whole, holds what uas keeps there: nothing yet, or the fingerprint of
 * the config the instances started with, and a live change that reads back (its parts a JSON
 * object that `liveApplies` takes, its past limits as instances send them).
 */
export function isMetaSound(
  meta: Record<string, string>,
  liveApplies: (live: unknown) => boolean = () => true,
): boolean {
  if (Object.keys(meta).length === 0) return true;
  if (!/^[0-9a-f]{64}$/.test(meta.base ?? '')) return false;
  if (meta.live !== undefined && meta.live !== '') {
    const live = parseJson(meta.live);
    if (typeof live !== 'object' || live === null || Array.isArray(live)) return false;
    if (!liveApplies(live)) return false;
  }
  if (meta.past === undefined || meta.past === 'null') return true;
  return readPastPolicies(parseJson(meta.past)) !== undefined;
}

/**
 * The arguments of the take script that carry a level's past policies: how many, then for each
 * the time it ended, its burst and its refill per ms (as text that reads back exactly).
 */
export function pastArguments(past: readonly PastPolicy[] | undefined): string[] {
  if (past === undefined || past.length === 0) return ['0'];
  const args = [String(past.length)];
  for (const era of past) args.push(String(era.until), String(era.burst), String(era.refillPerMs));
  return args;
}

/**
 * The levels whose limits a live change moved (from `before`, undefined for the config the
 * instances started with), each with the time its empty bucket now takes to fill, in ms.
 */
export function refilledLevels(
  before: LiveChange | undefined,
  after: LiveChange,
): Array<{ level: Level; fillMs: number }> {
  const old = readPastPolicies(before?.past) ?? { client: NO_PAST, caller: NO_PAST };
  const now = readPastPolicies(after.past);
  const limits = (after.live as { limits?: Record<string, { burst?: unknown; rate?: unknown }> })
    ?.limits;
  if (now === undefined || limits === undefined) return [];
  const levels: Array<{ level: Level; fillMs: number }> = [];
  for (const level of ['client', 'caller'] as const) {
    if (JSON.stringify(old[level]) === JSON.stringify(now[level])) continue;
    const { burst, rate } = limits[level] ?? {};
    const parsed = typeof rate === 'string' ? parseRate(rate) : undefined;
    if (typeof burst !== 'number' || parsed === undefined) continue;
    levels.push({ level, fillMs: burst / refillPerMs(parsed) });
  }
  return levels;
}
