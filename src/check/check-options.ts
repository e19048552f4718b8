/**
 * Thresholds of {@link checkIntegration}. Every rule that judges timing or counts people is
 * deliberately conservative: a correct integration (uas's own client among them) must get no
 * finding, so each threshold errs towards silence.
 */
export interface CheckOptions {
  /**
   * Attempts allowed per logical request, the first included (spec §7 rule 2 and §8).
   * @default 3
   */
  maxAttempts?: number;
  /**
   * How long after a retryable answer (429, 503) plus its Retry-After an identical request
   * still counts as a resend of it rather than a new request. Longer than any sensible backoff;
   * records cannot tell a resend from the same request sent anew by the user, so a shopper who
   * repeats the very same request this soon after the client gave up counts as a further
   * attempt.
   * @default 30000
   */
  resendWindowMs?: number;
  /**
   * Slack allowed for timers and clocks: a resend this much earlier than Retry-After still
   * counts as waiting for it.
   * @default 50
   */
  retryAfterToleranceMs?: number;
  /**
   * How soon after the Retry-After it was given ran out an identical request counts as a resend
   * for certain: a client that times its retry on Retry-After (axios-retry, uas's own client)
   * sends it within this, scheduling noise included, where a shopper asking anew is not that
   * punctual. Later (up to `resendWindowMs`), it is only possibly a resend.
   * @default 500
   */
  timedResendMs?: number;
  /**
   * How long after a 4xx (other than 429) an identical request counts as a retry of it.
   * @default 5000
   */
  clientErrorWindowMs?: number;
  /**
   * Most end-users (distinct e-mails) one caller_id may serve before it counts as shared: a few
   * shoppers behind one public address (NAT, an office) are normal.
   * @default 3
   */
  sharedCallerIdMaxEndUsers?: number;
  /**
   * Fewest requests carrying a caller_id an end-user must send before their caller_ids are judged
   * for changing on every request.
   * @default 3
   */
  perRequestMinRequests?: number;
  /**
   * Share of distinct caller_ids among an end-user's requests from which the caller_id counts as
   * changing on (nearly) every request.
   * @default 0.8
   */
  perRequestRatio?: number;
  /**
   * Share of the judged end-users that must change caller_id on every request for the rule to
   * fail: one shopper whose address changed is no pattern.
   * @default 0.5
   */
  perRequestMinShare?: number;
  /**
   * 429s answered to one sender while its bucket was known empty (within the Retry-After of an
   * earlier 429) from which the sender counts as hammering.
   * @default 5
   */
  persistent429Count?: number;
  /**
   * Fewest pairs of successive retries (each after its Retry-After) before backoff is judged
   * (`retry-without-backoff`; jitter has its own, `minJitterSamples`). Chance makes few pairs of
   * full jitter look flat: with uas's client (random × 500 ms, then random × 1000 ms) a pair
   * fails to grow by 120 ms 37 times in 100, so all 5 of 5 pairs do in about one run in 145, all
   * 8 of 8 in about one in 2,800.
   * @default 8
   */
  minRetrySamples?: number;
  /**
   * Fewest retries after the same attempt before their waits are compared for jitter (the
   * identical-waits sign of `retry-without-jitter`). Chance puts all of few jittered waits within
   * `jitterToleranceMs` of each other: with jitter over 500 ms (uas's client after attempt 1), all
   * 5 of 5 land within 120 ms in about one run in 75, all 8 of 8 in about one in 3,700.
   * @default 8
   */
  minJitterSamples?: number;
  /**
   * Scheduling noise allowed when waits are compared: waits closer than this count as the same
   * wait (and a backoff that grows by no more than this did not grow). Waits are measured between
   * the arrivals of requests at the emulator, so they carry the scheduling noise of both
   * processes: on a busy machine (a CI runner, the integration's own test suite running beside
   * it) a resend arrives 50 to 110 ms late, more when many are due at once. With 50 ms, a client
   * with a fixed delay passed as jittered in about one run in ten.
   * @default 120
   */
  jitterToleranceMs?: number;
  /**
   * The same, as a share of the client's own wait (its backoff beyond Retry-After), when that is
   * larger: two backoffs of about 3 s within 300 ms of each other count as the same.
   * @default 0.1
   */
  jitterToleranceShare?: number;
  /**
   * Share of samples that must look wrong (identical waits, or waits that do not grow) for the
   * backoff and jitter rules to fail. (`retry-without-backoff` also fails when three pairs of
   * retries in four waited Retry-After alone, whatever this share.)
   * @default 0.9
   */
  retryPatternShare?: number;
  /**
   * Width of the window in which retries of different callers count as bunched.
   * @default 100
   */
  herdWindowMs?: number;
  /**
   * Fewest distinct logical requests, told to come back at the same moment, whose retries are
   * judged for bunching.
   * @default 10
   */
  herdMinCallers?: number;
}

/** Every option with its default applied. */
export type ResolvedCheckOptions = Required<CheckOptions>;

/** Defaults of {@link CheckOptions}, in one place. */
export const CHECK_DEFAULTS: ResolvedCheckOptions = {
  maxAttempts: 3,
  resendWindowMs: 30_000,
  retryAfterToleranceMs: 50,
  timedResendMs: 500,
  clientErrorWindowMs: 5_000,
  sharedCallerIdMaxEndUsers: 3,
  perRequestMinRequests: 3,
  perRequestRatio: 0.8,
  perRequestMinShare: 0.5,
  persistent429Count: 5,
  minRetrySamples: 8,
  minJitterSamples: 8,
  jitterToleranceMs: 120,
  jitterToleranceShare: 0.1,
  retryPatternShare: 0.9,
  herdWindowMs: 100,
  herdMinCallers: 10,
};

// What each option may be: a share in (0, 1], a whole count of at least 1, or a duration.
const KINDS: Readonly<Record<keyof ResolvedCheckOptions, 'share' | 'count' | 'ms'>> = {
  maxAttempts: 'count',
  resendWindowMs: 'ms',
  retryAfterToleranceMs: 'ms',
  timedResendMs: 'ms',
  clientErrorWindowMs: 'ms',
  sharedCallerIdMaxEndUsers: 'count',
  perRequestMinRequests: 'count',
  perRequestRatio: 'share',
  perRequestMinShare: 'share',
  persistent429Count: 'count',
  minRetrySamples: 'count',
  minJitterSamples: 'count',
  jitterToleranceMs: 'ms',
  jitterToleranceShare: 'share',
  retryPatternShare: 'share',
  herdWindowMs: 'ms',
  herdMinCallers: 'count',
};

const EXPECTED = {
  share: 'a number above 0 and at most 1',
  count: 'a whole number of at least 1',
  ms: 'a finite number of milliseconds, at least 0',
} as const;

/**
 * Applies the defaults. Throws a RangeError naming the option when a value is not a number in
 * its range (a threshold of NaN would silently pass every rule).
 */
export function resolveCheckOptions(options: CheckOptions = {}): ResolvedCheckOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new TypeError(`check options must be an object; got ${describeValue(options)}`);
  // A misspelt threshold would leave its default in force, without a word.
  const unknown = Object.keys(options).find((name) => !Object.hasOwn(KINDS, name));
  if (unknown !== undefined)
    throw new RangeError(
      `unknown check option ${JSON.stringify(unknown)}; the options are ${Object.keys(KINDS).join(', ')}`,
    );
  const resolved: ResolvedCheckOptions = { ...CHECK_DEFAULTS };
  for (const name of Object.keys(KINDS) as (keyof ResolvedCheckOptions)[]) {
    const value: unknown = options[name];
    if (value === undefined) continue;
    const kind = KINDS[name];
    const valid =
      typeof value === 'number' &&
      Number.isFinite(value) &&
      (kind === 'share'
        ? value > 0 && value <= 1
        : kind === 'count'
          ? Number.isInteger(value) && value >= 1
          : value >= 0);
    if (!valid)
      throw new RangeError(`check option ${name} must be ${EXPECTED[kind]}; got ${String(value)}`);
    resolved[name] = value;
  }
  return resolved;
}

/** A value as an error names it: null, an array, or its type. */
function describeValue(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
