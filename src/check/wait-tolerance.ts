import type { ResolvedCheckOptions } from './check-options.js';
import type { RetryWait } from './logical-requests.js';

/**
 * How far apart two measured waits may be and still count as the same wait: the scheduling
 * noise of the machines that sent and recorded them (`jitterToleranceMs`, a loaded CI runner
 * delays a resend by 50 to 110 ms), or a share of the client's own wait (`jitterToleranceShare`
 * of its backoff beyond Retry-After), whichever is larger. Not a share of the whole wait: its
 * Retry-After part is the server's, and a jitter of 500 ms on a 5 s Retry-After is jitter still.
 */
export function waitTolerance(
  backoffMs: number,
  options: Pick<ResolvedCheckOptions, 'jitterToleranceMs' | 'jitterToleranceShare'>,
): number {
  return Math.round(
    Math.max(options.jitterToleranceMs, options.jitterToleranceShare * Math.max(0, backoffMs)),
  );
}

/** Whether a resend waited its Retry-After (give or take the timer slack): its backoff means something. */
export function waitedRetryAfter(
  wait: RetryWait,
  options: Pick<ResolvedCheckOptions, 'retryAfterToleranceMs'>,
): boolean {
  return wait.backoffMs >= -options.retryAfterToleranceMs;
}
