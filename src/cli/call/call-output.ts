import type { ChalkInstance } from 'chalk';
import type { CallResult } from '../../client/client.js';
import { describeRateLimit } from '../../client/rate-limit-state.js';
import { redactAuthorization } from '../../core/admin/redact.js';
import { colorStatus } from '../request-log.js';

/** The machine-readable form of a call, printed by `--json`. */
export function callToJson(
  operation: string,
  result: CallResult<unknown>,
): Record<string, unknown> {
  let body: unknown = result.text;
  try {
    body = result.text === '' ? null : JSON.parse(result.text);
  } catch {
    // not JSON: keep the text
  }
  return {
    operation,
    outcome: result.outcome,
    status: result.status ?? null,
    rate_limit: result.rateLimit ?? null,
    body,
    attempts: result.attempts.map((attempt) => ({
      attempt: attempt.attempt,
      status: attempt.status ?? null,
      error: attempt.error ?? null,
      wait_ms: Math.round(attempt.waitMs),
      rate_limit: attempt.rateLimit ?? null,
    })),
    gave_up: result.gaveUp ?? null,
  };
}

/** The human form of a call: status line, bucket state, body; with `verbose`, request and headers. */
export function formatCall(
  result: CallResult<unknown>,
  chalk: ChalkInstance,
  verbose: boolean,
): string {
  const lines: string[] = [];
  const { request } = result;
  if (verbose) {
    lines.push(chalk.dim(`> ${request.method} ${request.url}`));
    for (const [name, value] of Object.entries(request.headers)) {
      lines.push(
        chalk.dim(`> ${name}: ${name === 'authorization' ? redactAuthorization(value) : value}`),
      );
    }
    if (request.body !== undefined) lines.push(chalk.dim(`> ${request.body}`));
  }
  const attempts = `${result.attempts.length} attempt${result.attempts.length === 1 ? '' : 's'}`;
  const path = new URL(request.url).pathname;
  if (result.status === undefined) {
    const error = result.attempts[result.attempts.length - 1]?.error ?? 'no answer';
    lines.push(
      `${chalk.red('✖ network error')}  ${request.method} ${path}  ${chalk.dim(`(${error}; ${attempts})`)}`,
    );
    return lines.join('\n');
  }
  const mark = result.ok ? chalk.green('✔') : chalk.red('✖');
  lines.push(
    `${mark} ${colorStatus(chalk, result.status)}  ${request.method} ${path}  ${chalk.dim(`(${attempts})`)}`,
  );
  if (result.rateLimit !== undefined) {
    const bucket =
      result.rateLimit.bucket === undefined ? '' : chalk.dim(`  [${result.rateLimit.bucket}]`);
    lines.push(`${describeRateLimit(result.rateLimit)}${bucket}`);
  }
  if (verbose && result.headers !== undefined) {
    result.headers.forEach((value, name) => lines.push(chalk.dim(`< ${name}: ${value}`)));
  }
  if (result.text !== '') lines.push(prettyBody(result.text));
  return lines.join('\n');
}

function prettyBody(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
