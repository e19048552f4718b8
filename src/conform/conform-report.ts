/** How a probe ended. */
export type ProbeStatus = 'pass' | 'fail' | 'skip';

/** A probe's result, as reported. */
export interface ProbeResult {
  id: string;
  title: string;
  status: ProbeStatus;
  /** Requests it sent. */
  requests: number;
  /** On a failure: each difference between the answers and the contract. */
  differences: string[];
  /** On a skip: why. */
  reason: string | undefined;
}

/** What a run of the suite came to. */
export interface ConformReport {
  /** One result per probe, in the order they ran (reports call them checks). */
  checks: ProbeResult[];
  /** Requests sent in all. */
  requests: number;
  /** Set when the target could not be reached: why. */
  unreachable: string | undefined;
  /**
   * Set when the dev API wanted an admin token it was not given (or refused the one it was): the
   * run stopped there, a usage error rather than a failure of the target.
   */
  adminToken: string | undefined;
}

/** What a report says besides the probes: the target, the style expected, the budget. */
export interface ConformHeading {
  target: string;
  style: string;
  maxRequests: number;
}

/** Counts of the probes by result. */
export function countResults(checks: ProbeResult[]): {
  passed: number;
  failed: number;
  skipped: number;
} {
  return {
    passed: checks.filter((check) => check.status === 'pass').length,
    failed: checks.filter((check) => check.status === 'fail').length,
    skipped: checks.filter((check) => check.status === 'skip').length,
  };
}
