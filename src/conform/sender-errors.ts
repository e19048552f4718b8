// Why the sender stops a probe: each ends the probe, and the suite says how the run goes on.

/** Thrown when a request would pass the request budget; nothing is sent. */
export class BudgetSpentError extends Error {
  override readonly name = 'BudgetSpentError';
}

/** Thrown when the very first request gets no answer: the target cannot be reached. */
export class UnreachableError extends Error {
  override readonly name = 'UnreachableError';
}

/**
 * Thrown when the dev API refuses a request for want of an admin token (none given, or a wrong
 * one): the run was asked for something it was not given the means to do (a usage error), and
 * the target is not to blame.
 */
export class AdminTokenError extends Error {
  override readonly name = 'AdminTokenError';
}
