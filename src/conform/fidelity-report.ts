import { formatDuration } from '../text/duration.js';
import { BOUNDS, type HeaderStyle } from '../core/config/config-schema.js';
import type { ResolvedConfig } from '../core/config/config.js';
import type { RequestRecord } from '../core/records/records.js';
import { PROBLEM_KINDS, problemType, QUOTA_EXCEEDED_TYPE } from '../core/service/problems.js';

/** One way the real service differs from what the emulator assumes. */
export interface FidelityDifference {
  /** What is compared: `retry-after`, `rate-limit-headers`, `problem-type`, `refusal-bucket`. */
  topic: string;
  /** What the real service did, in words. */
  real: string;
  /** What the emulator does with its config, in words. */
  emulator: string;
}

/** The Retry-After of the real service's 429s. */
export interface RetryAfterSeen {
  refusals: number;
  /** 429s without Retry-After. */
  absent: number;
  /** 429s whose Retry-After was neither delay-seconds nor an HTTP date. */
  unreadable: number;
  /** The fewest and most seconds a readable one said; null without one. */
  least: number | null;
  most: number | null;
  /**
   * The seconds they said, each with how many 429s said it: the most frequent first, at most
   * {@link RETRY_AFTER_VALUES_MAX} (a journal of many 429s lists each value once).
   */
  values: Array<{ seconds: number; count: number }>;
}

/** The most distinct Retry-After values a report lists. */
export const RETRY_AFTER_VALUES_MAX = 32;

/** What the real service did, from the records of `uas serve --upstream`, and how it compares. */
export interface FidelityReport {
  /** Records the real service answered. */
  exchanges: number;
  /** Answers by status, and the problem types each came with. */
  statuses: Array<{ status: number; count: number; problem_types: string[] }>;
  /** Retry-After of the real service's 429s. */
  retry_after: RetryAfterSeen;
  /** The rate-limit header style its answers had, and the policies they stated. */
  headers: { style: HeaderStyle | 'mixed'; policies: string[] };
  /** Its 429s by the level of the bucket it named (`unnamed` when it named none). */
  refusal_buckets: { client: number; caller: number; unnamed: number; expected_other: number };
  differences: FidelityDifference[];
  /** A config patch (behavior) that makes the emulator answer as the real service did. */
  config: { behavior: { retryAfter?: string; headers?: HeaderStyle } };
  /** What the recording lost (its loss lines say), not compared; absent when it lost nothing. */
  incomplete?: string;
}

/** The problem types the emulator answers each status with. */
function emulatorTypes(): Map<number, Set<string>> {
  const types = new Map<number, Set<string>>([[429, new Set([QUOTA_EXCEEDED_TYPE])]]);
  for (const [kind, { status }] of Object.entries(PROBLEM_KINDS)) {
    const set = types.get(status) ?? new Set<string>();
    set.add(problemType(kind as keyof typeof PROBLEM_KINDS));
    types.set(status, set);
  }
  return types;
}

/**
 * Compares what the real service did (the records `uas serve --upstream` journaled) with what
 * the emulator assumes under `config`: Retry-After values, the RateLimit header style, problem
 * types by status, and which bucket a 429 came from when the service names it. Pure.
 */
export function compareWithService(
  records: readonly RequestRecord[],
  config: ResolvedConfig,
): FidelityReport {
  const real = records.filter((record) => record.upstream?.answered_by === 'upstream');
  const differences: FidelityDifference[] = [];
  const statuses = statusesOf(real);
  const known = emulatorTypes();
  for (const { status, problem_types } of statuses)
    for (const type of problem_types)
      if (known.get(status)?.has(type) !== true)
        differences.push({
          topic: 'problem-type',
          real: `${status} with type ${type}`,
          emulator: `${status} with ${[...(known.get(status) ?? [])].join(' or ') || 'no problem type of its own'}`,
        });
  const refusals = real.filter((record) => record.status === 429);
  // A body that did not come in whole (its client left, the real service or a shutdown cut it)
  // may have been cut before its type: it says nothing of the problem types the service sends.
  const whole = refusals.filter((record) => record.upstream?.cut === undefined);
  const bare = whole.filter((record) => record.upstream?.problem_type === undefined).length;
  if (bare > 0)
    differences.push({
      topic: 'problem-type',
      real: `429 whose body gave no problem type (${bare} of ${whole.length}): none, not JSON (or compressed), or a problem whose type came past the 16 KiB a record keeps`,
      emulator: `429 with ${QUOTA_EXCEEDED_TYPE}`,
    });
  const retryAfter = retryAfterOf(refusals);
  const patch: FidelityReport['config']['behavior'] = {};
  const wanted = retryAfterMode(retryAfter);
  if (wanted !== undefined && !sameMode(wanted, config)) {
    // A config takes a fixed Retry-After up to a day: a longer one has no config to match it.
    const fits =
      !wanted.startsWith('fixed:') || Number(wanted.slice(6)) <= BOUNDS.retryAfterSeconds;
    if (fits) patch.retryAfter = wanted;
    differences.push({
      topic: 'retry-after',
      real: describeRetryAfter(retryAfter),
      emulator: `Retry-After ${describeMode(config)}${fits ? '' : ` (a fixed Retry-After is at most ${BOUNDS.retryAfterSeconds} s)`}`,
    });
  }
  const { unreadable } = retryAfter;
  if (unreadable > 0)
    differences.push({
      topic: 'retry-after',
      real: `a Retry-After neither delay-seconds nor an HTTP date on ${unreadable} of ${refusals.length} 429s`,
      emulator: 'Retry-After in delay-seconds',
    });
  const headers = headersOf(real);
  if (real.length > 0 && headers.style !== 'mixed' && headers.style !== config.behavior.headers) {
    patch.headers = headers.style;
    differences.push({
      topic: 'rate-limit-headers',
      real: styleWords(headers.style),
      emulator: styleWords(config.behavior.headers),
    });
  }
  const buckets = bucketsOf(refusals);
  if (buckets.expected_other > 0)
    differences.push({
      topic: 'refusal-bucket',
      real: `${buckets.expected_other} 429s came from a bucket of the other level than the request's caller_id selects`,
      emulator:
        'a request with a caller_id is counted in its caller bucket, without one in the client bucket',
    });
  return {
    exchanges: real.length,
    statuses,
    retry_after: retryAfter,
    headers,
    refusal_buckets: buckets,
    differences,
    config: { behavior: patch },
  };
}

/** A header style in words: `draft-7 fields`, or `no rate-limit fields`. */
function styleWords(style: HeaderStyle): string {
  return style === 'none' ? 'no rate-limit fields' : `${style} fields`;
}

function statusesOf(records: readonly RequestRecord[]): FidelityReport['statuses'] {
  const byStatus = new Map<number, { count: number; types: Set<string> }>();
  for (const record of records) {
    const entry = byStatus.get(record.status) ?? { count: 0, types: new Set<string>() };
    entry.count++;
    const type = record.upstream?.problem_type;
    if (type !== undefined && record.status >= 400 && entry.types.size < 16) entry.types.add(type);
    byStatus.set(record.status, entry);
  }
  return [...byStatus]
    .sort(([a], [b]) => a - b)
    .map(([status, { count, types }]) => ({ status, count, problem_types: [...types] }));
}

function retryAfterOf(refusals: readonly RequestRecord[]): RetryAfterSeen {
  const counts = new Map<number, number>();
  let absent = 0;
  let readable = 0;
  for (const record of refusals) {
    if (record.upstream?.retry_after_text === undefined) absent++;
    if (record.retry_after === undefined) continue;
    readable++;
    counts.set(record.retry_after, (counts.get(record.retry_after) ?? 0) + 1);
  }
  // In a loop, not Math.min(...): a journal may hold more distinct values than a call takes.
  let least: number | null = null;
  let most: number | null = null;
  for (const value of counts.keys()) {
    if (least === null || value < least) least = value;
    if (most === null || value > most) most = value;
  }
  return {
    refusals: refusals.length,
    absent,
    unreadable: refusals.length - absent - readable,
    least,
    most,
    values: [...counts]
      .map(([value, count]) => ({ seconds: value, count }))
      .sort((a, b) => b.count - a.count || a.seconds - b.seconds)
      .slice(0, RETRY_AFTER_VALUES_MAX),
  };
}

/** The `behavior.retryAfter` the refusals suggest: absent, one fixed value, or undefined (varied). */
function retryAfterMode(seen: RetryAfterSeen): string | undefined {
  if (seen.refusals === 0) return undefined;
  if (seen.absent === seen.refusals) return 'absent';
  const [only, other] = seen.values;
  if (seen.absent > 0 || seen.unreadable > 0 || only === undefined || other !== undefined)
    return undefined;
  return only.seconds === 1 ? undefined : `fixed:${only.seconds}`;
}

function sameMode(wanted: string, config: ResolvedConfig): boolean {
  const mode = config.behavior.retryAfter;
  if (wanted === 'absent') return mode.mode === 'absent';
  return mode.mode === 'fixed' && `fixed:${mode.seconds}` === wanted;
}

function describeMode(config: ResolvedConfig): string {
  const mode = config.behavior.retryAfter;
  if (mode.mode === 'fixed') return `fixed at ${mode.seconds} s (or the bucket's wait if longer)`;
  if (mode.mode === 'absent') return 'never sent';
  return "the bucket's exact wait, 1 s for a bucket that refills a token a second";
}

function describeRetryAfter(seen: RetryAfterSeen): string {
  if (seen.absent === seen.refusals) return `no Retry-After on ${seen.refusals} 429s`;
  const shown = seen.values.slice(0, 8).map((value) => value.seconds);
  const readable = seen.refusals - seen.absent - seen.unreadable;
  shown.sort((a, b) => a - b);
  const values = shown.some((seconds) => seconds >= 60)
    ? shown.map(secondsWords).join(', ')
    : `${shown.join(', ')} s`;
  return `Retry-After ${values} on ${readable} of ${seen.refusals} 429s`;
}

/** Seconds of a Retry-After, and in units when long enough to need them: `1000000000000 s (31,688 years)`. */
export function secondsWords(seconds: number): string {
  return seconds < 60 ? `${seconds} s` : `${seconds} s (${formatDuration(seconds * 1000)})`;
}

function headersOf(records: readonly RequestRecord[]): FidelityReport['headers'] {
  const styles = new Set<HeaderStyle>();
  const policies = new Set<string>();
  for (const record of records) {
    const facts = record.upstream;
    if (facts === undefined) continue;
    // An answer without rate-limit fields (uas sends none on 400 and 401) says nothing of the style.
    const style = styleOf(facts.headers, facts.policy);
    if (style !== 'none') styles.add(style);
    if (facts.policy !== undefined && policies.size < 8) policies.add(facts.policy);
  }
  const [only] = styles;
  return { style: styles.size > 1 ? 'mixed' : (only ?? 'none'), policies: [...policies] };
}

/** The header style of one answer, from the names of its rate-limit headers and its policy. */
function styleOf(names: readonly string[], policy: string | undefined): HeaderStyle {
  const has = (name: string) => names.includes(name);
  if (has('ratelimit-limit')) return 'draft-6';
  if (names.some((name) => name.startsWith('x-ratelimit'))) return 'x-ratelimit';
  if (has('ratelimit')) return policy?.includes('q=') === true ? 'draft-10' : 'draft-7';
  return 'none';
}

function bucketsOf(refusals: readonly RequestRecord[]): FidelityReport['refusal_buckets'] {
  const counts = { client: 0, caller: 0, unnamed: 0, expected_other: 0 };
  for (const record of refusals) {
    const bucket = record.upstream?.bucket;
    const level = bucket?.startsWith('caller:')
      ? 'caller'
      : bucket?.startsWith('client:')
        ? 'client'
        : undefined;
    if (level === undefined) {
      counts.unnamed++;
      continue;
    }
    counts[level]++;
    const expected = record.caller_id === undefined ? 'client' : 'caller';
    if (level !== expected) counts.expected_other++;
  }
  return counts;
}
