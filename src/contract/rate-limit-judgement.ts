/** What the rate-limit fields of an answer say about its bucket. */
export interface RateLimitReading {
  /** The policy named by draft-10 fields (`caller`, `client`); undefined in the other styles. */
  policy: string | undefined;
  /** Whole requests left. */
  remaining: number;
  /** Requests the bucket holds when full, when the fields say. */
  limit: number | undefined;
}

/** The rate-limit fields of an answer judged: what they say, and each way they are malformed. */
export interface RateLimitJudgement {
  reading: RateLimitReading | undefined;
  problems: string[];
}

/** The judgement of fields that say `remaining` of `limit`: a reading only when nothing is wrong. */
export function judgementOf(
  problems: string[],
  remaining: number | undefined,
  limit: number | undefined,
): RateLimitJudgement {
  return {
    reading:
      problems.length === 0 && remaining !== undefined
        ? { policy: undefined, remaining, limit }
        : undefined,
    problems,
  };
}
