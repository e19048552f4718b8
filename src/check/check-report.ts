/** How bad a finding is: `error` breaks the spec's rules, `warn` weakens what they protect. */
export type Severity = 'error' | 'warn';

/** The stable ids of the rules of `uas check`. */
export type RuleId =
  | 'caller-id-missing'
  | 'caller-id-wrong-place'
  | 'caller-id-shared'
  | 'caller-id-per-request'
  | 'caller-id-internal-ip'
  | 'caller-id-is-email'
  | 'retry-before-retry-after'
  | 'retry-cap-exceeded'
  | 'retry-cap-possibly-exceeded'
  | 'retry-without-backoff'
  | 'retry-without-jitter'
  | 'retry-on-client-error'
  | 'ignores-429'
  | 'unauthenticated';

/** What the records showed a rule to be: a rule nothing exercised is never `passed`. */
export type RuleStatus = 'passed' | 'failed' | 'not-exercised';

/** What a finding rests on. Every value is JSON-safe. */
export interface Evidence {
  /** How many of the things the rule counts (requests, end-users, buckets: the message says). */
  count: number;
  /** Ids of requests that show it, oldest first, at most 5. */
  examples: number[];
  /** Example values as text (caller_ids, places, waits), at most 5; taken from requests, so unescaped. */
  values: string[];
  /** Figures the rule measured, by name (such as `pairs` or `end_users`). */
  figures: Record<string, number>;
}

/**
 * A request a finding names, as it was sent and answered: enough to find it in a test's log
 * once the emulator that saw it is gone. Taken from requests, so unescaped.
 */
export interface EvidenceRequest {
  id: number;
  /** When it arrived (ISO 8601). */
  time: string;
  method: string;
  path: string;
  status: number;
  /** Its fields (query of exists, body of start and verify, the code left out); null when unreadable. */
  fields: Record<string, unknown> | null;
}

/** A finding's evidence: what its rule gave, and the requests of `examples` themselves. */
export interface FindingEvidence extends Evidence {
  /** The requests of `examples`, in the same order. */
  requests: EvidenceRequest[];
}

/** One broken rule. */
export interface Finding {
  rule: RuleId;
  severity: Severity;
  /** One line; may quote values from requests, so escape it before printing. */
  message: string;
  /** The spec rule it comes from, quoting the section. */
  spec: string;
  /** Where the rule is explained, the spec's text quoted: `docs/check-rules.md#<rule id>`. */
  docs: string;
  /** How to fix it. */
  fix: string;
  evidence: FindingEvidence;
}

/** The verdict on one rule. `reason` says why a rule was not exercised. */
export interface RuleResult {
  rule: RuleId;
  severity: Severity;
  status: RuleStatus;
  reason?: string;
}

/** Smallest, median and largest of a set of durations in milliseconds. */
export interface DelayStats {
  count: number;
  min: number;
  median: number;
  max: number;
}

/** What the records held, whatever the rules say. */
export interface CheckSummary {
  /** Service requests (records with an operation); the others are ignored. */
  requests: number;
  /** Records ignored: dev API and unrouted requests. */
  ignored: number;
  by_operation: Record<string, number>;
  /** Requests by status code (as text, such as `"429"`). */
  by_status: Record<string, number>;
  /** Distinct end-users (e-mail, or phone number of exists, per client). */
  end_users: number;
  /** Distinct caller_ids (per client). */
  caller_ids: number;
  /** Requests answered 429. */
  rate_limited: number;
  /** First attempts and their resends, counted as one. */
  logical_requests: number;
  /** Logical requests with more than one attempt. */
  retried: number;
  /** Logical requests by number of attempts (as text, such as `"2"`). */
  attempts: Record<string, number>;
  /** Time between an attempt and its resend; null without resends. */
  retry_delay_ms: DelayStats | null;
  /** The same minus the Retry-After of the 429 before it; null without such resends. */
  retry_delay_beyond_retry_after_ms: DelayStats | null;
  /** First and last request (ISO 8601) and the time between; null without requests. */
  span: { from: string; to: string; duration_ms: number } | null;
}

/**
 * The result of {@link checkIntegration}: plain JSON (no Map, no undefined inside arrays), so it
 * is what `--json` prints.
 */
export interface CheckReport {
  summary: CheckSummary;
  /** Broken rules, worst first. */
  findings: Finding[];
  /** Every rule, in catalog order. */
  rules: RuleResult[];
  /**
   * What the report could not judge, one sentence each: requests a recording lost, or that the
   * journal let go; nothing was judged at all. Empty (never absent) when nothing was left out.
   * Unescaped: it may quote a recording.
   */
  warnings: string[];
}
