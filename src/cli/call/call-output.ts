import type { ChalkInstance } from 'chalk';
import type { AttemptRecord, CallResult } from '../../client/client.js';
import { describeRateLimit, type RateLimitState } from '../../client/rate-limit-state.js';
import type { RetryAfter } from '../../client/retry-after.js';
import { redactAuthorization } from '../../core/records/redact.js';
import { colorStatus } from '../request-log.js';
import { escapeControls as safe } from '../safe-text.js';

/**
 * The machine-readable form of a call, printed by `--json`: every key in snake_case, like the
 * service's own wire format; docs/call.md shows the shape.
 */
export function callToJson(
  operation: string,
  result: CallResult<unknown>,
): Record<string, unknown> {
  let body: unknown = null;
  if (result.outcome !== 'network-error' && result.text !== '') {
    try {
      body = JSON.parse(result.text);
      // A server can nest JSON deeper than JSON.stringify can recurse: such a body goes as text.
      JSON.stringify(body);
    } catch {
      body = result.text;
    }
  }
  return {
    operation,
    outcome: result.outcome,
    status: result.status ?? null,
    error: result.error ?? null,
    location: result.location ?? null,
    retry_after: retryAfterToJson(result.retryAfter),
    rate_limit: rateLimitToJson(result.rateLimit),
    body,
    attempts: result.attempts.map((attempt: AttemptRecord) => ({
      attempt: attempt.attempt,
      status: attempt.status ?? null,
      error: attempt.error ?? null,
      retry_after: retryAfterToJson(attempt.retryAfter),
      wait_ms: Math.round(attempt.waitMs),
      rate_limit: rateLimitToJson(attempt.rateLimit),
    })),
    gave_up: result.gaveUp ?? null,
  };
}

function rateLimitToJson(state: RateLimitState | undefined): Record<string, unknown> | null {
  if (state === undefined) return null;
  return {
    bucket: state.bucket ?? null,
    policy: state.policy ?? null,
    limit: state.limit ?? null,
    remaining: state.remaining ?? null,
    reset_seconds: state.resetSeconds ?? null,
    window_seconds: state.windowSeconds ?? null,
    style: state.style,
  };
}

function retryAfterToJson(retryAfter: RetryAfter | undefined): Record<string, unknown> | null {
  if (retryAfter === undefined) return null;
  return {
    value: retryAfter.value,
    form: retryAfter.form,
    delay_ms: retryAfter.delayMs === undefined ? null : Math.round(retryAfter.delayMs),
  };
}

/**
 * `Retry-After` as sent and as understood, for people: "Retry-After: 60 (in 60 s)",
 * "Retry-After: Sun, 22 Nov 2026 08:00:12 GMT (in 12 s)", "Retry-After: soon (not understood;
 * ignored)". The value is escaped.
 */
export function describeRetryAfter(retryAfter: RetryAfter): string {
  const value = `Retry-After: ${safe(retryAfter.value.trim())}`;
  if (retryAfter.delayMs === undefined) return `${value} (not understood; ignored)`;
  if (retryAfter.form === 'date' && retryAfter.delayMs === 0) return `${value} (already passed)`;
  return `${value} (in ${Math.ceil(retryAfter.delayMs / 1000)} s)`;
}

/** The bucket state for people, with the bucket's name; both escaped. */
export function describeBucket(state: RateLimitState): string {
  const bucket = state.bucket === undefined ? '' : ` [${safe(state.bucket)}]`;
  return `${safe(describeRateLimit(state))}${bucket}`;
}

/**
 * The human form of a call: status line, bucket state, Retry-After, what went wrong, body; with
 * `verbose`, the request and every response header. Everything that came from the server is
 * passed through {@link safe} before it is coloured.
 */
export function formatCall(
  result: CallResult<unknown>,
  chalk: ChalkInstance,
  verbose: boolean,
): string {
  const lines: string[] = [];
  const { request } = result;
  if (verbose) {
    lines.push(chalk.dim(`> ${request.method} ${safe(request.url)}`));
    for (const [name, value] of Object.entries(request.headers)) {
      const shown = name === 'authorization' ? redactAuthorization(value) : value;
      lines.push(chalk.dim(`> ${name}: ${safe(shown)}`));
    }
    if (request.body !== undefined) lines.push(chalk.dim(`> ${safe(request.body)}`));
  }
  const attempts = `${result.attempts.length} attempt${result.attempts.length === 1 ? '' : 's'}`;
  const path = safe(new URL(request.url).pathname);
  if (result.outcome === 'network-error') {
    lines.push(
      `${chalk.red('✖ network error')}  ${request.method} ${path}  ${chalk.dim(`(${safe(result.error)}; ${attempts})`)}`,
    );
    return lines.join('\n');
  }
  const mark = result.ok ? chalk.green('✔') : chalk.red('✖');
  lines.push(
    `${mark} ${colorStatus(chalk, result.status)}  ${request.method} ${path}  ${chalk.dim(`(${attempts})`)}`,
  );
  if (result.outcome === 'http-error' && result.status >= 300 && result.status < 400) {
    const to = result.location === undefined ? 'no Location' : `to ${safe(result.location)}`;
    lines.push(chalk.red(`redirect ${to}: not followed (uas call never follows redirects)`));
  }
  if (result.outcome === 'invalid-answer')
    lines.push(chalk.red(`not an answer of the API: ${safe(result.error)}`));
  if (result.rateLimit !== undefined) {
    const { bucket } = result.rateLimit;
    const name = bucket === undefined ? '' : chalk.dim(`  [${safe(bucket)}]`);
    lines.push(`${safe(describeRateLimit(result.rateLimit))}${name}`);
  }
  if (result.retryAfter !== undefined) lines.push(describeRetryAfter(result.retryAfter));
  if (verbose) {
    result.headers.forEach((value, name) =>
      lines.push(chalk.dim(`< ${safe(name)}: ${safe(value)}`)),
    );
  }
  if (result.text !== '') lines.push(safe(prettyBody(result.text)));
  return lines.join('\n');
}

function prettyBody(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
