import { createInterface } from 'node:readline/promises';
import { callerIdFromForwardedFor, compileRanges } from '../../client/caller-id.js';
import { describeNoAnswer } from '../../http/network-error.js';
import {
  createClient,
  type CallResult,
  type Client,
  type ClientClock,
  type RetryNotice,
} from '../../client/client.js';
import type { RandomSource } from '../../core/time/random.js';
import { isPathSegment } from '../../core/service/service-routes.js';
import { DEMO_MERCHANT, DEMO_TOKEN } from '../../demo-config.js';
import { createDevClient } from '../../dev-client/dev-client.js';
import { isDevApiError } from '../../dev-client/dev-api-error.js';
import { adminTokenProblem } from '../../text/admin-token-problem.js';
import type { CallFlags } from './call-flags.js';
import { CliError, EXIT } from '../io.js';
import { colorsFor } from '../colors-for.js';
import { durationFlag } from '../duration-flag.js';
import { ACCESS_TOKEN, parseHttpUrl, sizeFlag } from '../options.js';
import { resolveAccessToken, sendableAdminToken } from '../resolve-access-token.js';
import type { CommandContext } from '../command-context.js';
import { escapeControls as safe, toSafeJson } from '../safe-text.js';
import { isOverLimitError } from '../../http/read-response-body.js';
import { basePathHint, INJECTED_429_NOTE, PERSISTENT_429_ADVICE } from './call-advice.js';
import { callToJson, describeBucket, describeRetryAfter, formatCall } from './call-output.js';

/** What `uas call` takes from outside besides its I/O: time and jitter, injected by tests. */
export interface CallDeps {
  /** @default the wall clock and setTimeout */
  clock?: ClientClock;
  /** @default Math.random */
  random?: RandomSource;
}

/** Runs one `uas call` command and returns its exit code. */
export async function runCall(
  name: 'exists' | 'start' | 'verify' | 'flow',
  flags: CallFlags,
  context: CommandContext,
  deps: CallDeps = {},
): Promise<number> {
  const { io } = context;
  const err = colorsFor(io.stderr, io.env);
  const out = colorsFor(io.stdout, io.env);
  const target = parseHttpUrl('--url', flags.url, ACCESS_TOKEN);
  // The base URL as given, path included: what messages name.
  const base = target.href.replace(/\/+$/, '');
  const token = await resolveAccessToken(flags, target, io.cwd);
  const callerId = resolveCallerId(flags);
  const maxWaitMs = durationFlag('--max-wait', flags.maxWait);
  const timeoutMs = durationFlag('--timeout', flags.timeout, true);
  const maxResponseBytes = sizeFlag('--max-response', flags.maxResponse);
  const retry = flags.retry ? { maxAttempts: flags.maxAttempts, maxWaitMs } : (false as const);
  // Every line on stderr starts with "uas:", retry notices included; colour only after it.
  const warn = (line: string) => io.stderr.write(`uas: ${line}\n`);

  const client = createClient({
    baseUrl: base,
    token,
    retry,
    timeoutMs,
    maxResponseBytes,
    onRetry: (notice) => warn(err.yellow(describeRetry(notice))),
    ...(deps.clock === undefined ? {} : { clock: deps.clock }),
    ...(deps.random === undefined ? {} : { random: deps.random }),
  });

  const merchant = () => {
    if (flags.merchant !== undefined) return checkMerchant(flags.merchant);
    if (token === DEMO_TOKEN) return DEMO_MERCHANT;
    throw new CliError('--merchant is required (only the demo token has a default merchant)');
  };

  const report = (operation: string, result: CallResult<unknown>): number => {
    if (flags.json) io.stdout.write(`${toSafeJson(callToJson(operation, result))}\n`);
    else io.stdout.write(`${formatCall(result, out, flags.verbose === true)}\n`);
    explain(result, base, flags, warn, err);
    return exitCodeOf(result);
  };

  switch (name) {
    case 'exists': {
      if ((flags.email === undefined) === (flags.phone === undefined))
        throw new CliError('give exactly one of --email or --phone');
      return report(
        'exists',
        await client.exists({ email: flags.email, phoneNumber: flags.phone, callerId }),
      );
    }
    case 'start':
      return report(
        'start',
        await client.start({ merchantId: merchant(), email: flags.email as string, callerId }),
      );
    case 'verify':
      return report(
        'verify',
        await client.verify({
          merchantId: merchant(),
          email: flags.email as string,
          code: flags.code as string,
          callerId,
        }),
      );
    case 'flow':
      return flow(
        client,
        { merchantId: merchant(), email: flags.email as string, callerId, code: flags.code },
        base,
        context,
        flags,
        report,
      );
  }
}

/** What the line before a retry says: why the attempt failed, and when the next one comes. */
function describeRetry(notice: RetryNotice): string {
  const wait = `${(notice.waitMs / 1000).toFixed(1)} s`;
  const next = `attempt ${notice.attempt + 1} of ${notice.maxAttempts} in ${wait}`;
  if (notice.status === 429 && notice.error === undefined) {
    const state = notice.rateLimit;
    const bucket = state === undefined ? 'rate limited' : describeBucket(state);
    return `429 on ${notice.operation}: ${bucket}; ${next}`;
  }
  // A body cut short has a status too: the error says more than the status.
  const what = notice.error === undefined ? String(notice.status) : safe(notice.error);
  return `${what} on ${notice.operation}; ${next}`;
}

/** Where the code of `flow` came from. */
type CodeSource = 'flag' | 'dev-api' | 'prompt';

async function flow(
  client: Client,
  input: {
    merchantId: string;
    email: string;
    callerId: string | undefined;
    code: string | undefined;
  },
  base: string,
  context: CommandContext,
  flags: CallFlags,
  report: (operation: string, result: CallResult<unknown>) => number,
): Promise<number> {
  const { io } = context;
  const chalk = colorsFor(io.stdout, io.env);
  const step = (n: number, text: string) => {
    if (!flags.json) io.stdout.write(`${chalk.bold(`[${n}/4]`)} ${safe(text)}\n`);
  };
  step(1, `exists ${input.email}`);
  const exists = await client.exists({ email: input.email, callerId: input.callerId });
  let code = report('exists', exists);
  if (!exists.ok) return code;
  if (!exists.data.exists) {
    io.stderr.write(`uas: ${safe(input.email)} is not a user of ${base}; stopping before start\n`);
    return EXIT.failure;
  }
  step(2, `start at merchant ${input.merchantId}`);
  code = report('start', await client.start(input));
  if (code !== EXIT.ok) return code;
  step(3, 'code');
  let otp = input.code;
  let source: CodeSource = 'flag';
  if (otp === undefined) {
    otp = await codeFromEmulator(base, input, flags.adminToken, (line) =>
      io.stderr.write(`${line}\n`),
    );
    source = 'dev-api';
  }
  if (otp === undefined) {
    otp = await promptForCode(io.stdin, input.email, io.stderr);
    source = 'prompt';
  }
  // The code step is a step too: --json gives one object for each of the four.
  if (flags.json)
    io.stdout.write(
      `${toSafeJson({ operation: 'code', outcome: 'success', source, code: otp })}\n`,
    );
  else io.stdout.write(`code ${safe(otp)}\n`);
  step(4, 'verify');
  return report('verify', await client.verify({ ...input, code: otp }));
}

/**
 * Reads the latest code from the dev API when the target is a uas emulator; undefined otherwise
 * (the code is then asked for). When the target is an emulator but gives no usable code (its dev
 * API needs an admin token, has no code, or gives one that is not digits), it says why, rather
 * than leave the user to wonder why they are asked.
 */
async function codeFromEmulator(
  base: string,
  input: { merchantId: string; email: string },
  adminToken: string | undefined,
  warn: (line: string) => void,
): Promise<string | undefined> {
  // The dev API takes the admin token, never the access token.
  const dev = createDevClient(base, {
    adminToken: sendableAdminToken(adminToken),
    timeoutMs: 3000,
    maxResponseBytes: 65_536,
  });
  const cannot = `uas: cannot read the code from ${base}`;
  const ask = '; enter it at the prompt, or give it with --code';
  try {
    await dev.health();
  } catch (error) {
    // Not a uas emulator (no dev API): the code is asked for, as for any server.
    if (isDevApiError(error) && error.failure === 'admin-token')
      warn(`${cannot}: ${adminTokenProblem(adminToken !== undefined)}${ask}`);
    return undefined;
  }
  let code: unknown;
  try {
    code = (await dev.latestCode(input.email, input.merchantId))?.code;
  } catch (error) {
    warn(`${cannot}: ${isDevApiError(error) ? error.message : String(error)}${ask}`);
    return undefined;
  }
  if (code === undefined) {
    warn(`${cannot}: its dev API has no code for ${safe(input.email)}${ask}`);
    return undefined;
  }
  // A code is digits; anything else is not one, and is not shown or sent.
  if (typeof code !== 'string' || !/^\d{1,32}$/.test(code)) {
    warn(`${cannot}: its dev API gave a code that is not digits (not shown, not sent)${ask}`);
    return undefined;
  }
  return code;
}

async function promptForCode(
  stdin: NodeJS.ReadableStream | undefined,
  email: string,
  stderr: { write(text: string): unknown },
): Promise<string> {
  if (stdin === undefined) throw new CliError('no code to verify: pass it with --code');
  const prompt = createInterface({
    input: stdin,
    output: stderr as NodeJS.WritableStream,
    terminal: false,
  });
  try {
    let answered = false;
    const answer = await Promise.race([
      prompt.question(`code sent to ${email}; enter it: `).then((line) => {
        answered = true;
        return line;
      }),
      new Promise<never>((_, reject) =>
        prompt.once('close', () => {
          // The input ended at the prompt: the error goes on a line of its own.
          if (!answered) stderr.write('\n');
          reject(new CliError('no code was entered; pass it with --code'));
        }),
      ),
    ]);
    const code = answer.trim();
    if (!/^\d+$/.test(code))
      throw new CliError(`the code must be digits; got ${JSON.stringify(code)}`);
    return code;
  } finally {
    prompt.close();
  }
}

/** Says on stderr what went wrong and what to do, in words; server text escaped. */
function explain(
  result: CallResult<unknown>,
  base: string,
  flags: CallFlags,
  warn: (line: string) => void,
  chalk: ReturnType<typeof colorsFor>,
): void {
  switch (result.outcome) {
    case 'rate-limited': {
      const bucket =
        result.rateLimit?.bucket === undefined ? '' : ` (${safe(result.rateLimit.bucket)})`;
      if (result.gaveUp === 'wait-too-long' && result.retryAfter !== undefined) {
        warn(
          chalk.red(
            `rate limited${bucket}; ${describeRetryAfter(result.retryAfter)} is above --max-wait ${flags.maxWait}; not retrying`,
          ),
        );
      } else {
        warn(
          chalk.red(
            `still rate limited after ${result.attempts.length} attempt${result.attempts.length === 1 ? '' : 's'}${bucket}.`,
          ),
        );
      }
      // An injected 429 is said to be one, even alone; one 429 of an empty bucket (--no-retry,
      // or a Retry-After above --max-wait) is not yet "persistent".
      if (result.problem?.injected === true) warn(INJECTED_429_NOTE);
      else if (result.attempts.length > 1) warn(PERSISTENT_429_ADVICE);
      return;
    }
    case 'network-error': {
      // A status came but the body did not: the server was reached, its answer was not whole.
      const answered = result.attempts[result.attempts.length - 1]?.status !== undefined;
      warn(chalk.red(describeNoAnswer(base, safe(result.error), answered)));
      return;
    }
    case 'invalid-answer': {
      const hint = isOverLimitError(result.error) ? ' (raise the limit with --max-response)' : '';
      warn(
        chalk.red(
          `${base} answered ${result.status} with something that is not an answer of the API: ${safe(result.error)}${hint}`,
        ),
      );
      return;
    }
    case 'http-error':
      if (result.status === 404 && basePathHint(base) !== undefined)
        warn(chalk.red(basePathHint(base) as string));
      if (result.status >= 300 && result.status < 400)
        warn(
          chalk.red(
            `${base} answered ${result.status}, a redirect${result.location === undefined ? '' : ` to ${safe(result.location)}`}; uas call never follows redirects: check --url`,
          ),
        );
      return;
    case 'success':
      return;
  }
}

/** The exit code of a call; docs/call.md and `uas call --help` list them. */
function exitCodeOf(result: CallResult<unknown>): number {
  switch (result.outcome) {
    case 'success':
      return EXIT.ok;
    case 'rate-limited':
      return EXIT.rateLimited;
    case 'network-error':
      return EXIT.network;
    case 'http-error':
    case 'invalid-answer':
      return EXIT.failure;
  }
}

function resolveCallerId(flags: CallFlags): string | undefined {
  if (flags.forwardedFor === undefined) {
    if (flags.trustedProxies !== undefined && flags.trustedProxies !== '0')
      throw new CliError(
        '--trusted-proxies goes with --forwarded-for <list>, whose proxies it counts or names',
      );
    if (flags.callerId !== undefined && flags.callerId === '')
      throw new CliError('--caller-id is empty');
    return flags.callerId;
  }
  if (flags.callerId !== undefined)
    throw new CliError('give --caller-id or --forwarded-for, not both');
  const trustedText = flags.trustedProxies ?? '0';
  let trusted: number | string[];
  if (/^\d+$/.test(trustedText)) {
    trusted = Number(trustedText);
  } else {
    trusted = trustedText
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    try {
      compileRanges(trusted);
    } catch (error) {
      throw new CliError(`invalid --trusted-proxies: ${(error as Error).message}`);
    }
  }
  const result = callerIdFromForwardedFor(flags.forwardedFor, trusted);
  if (result.callerId === undefined)
    throw new CliError(
      `cannot derive a caller_id from --forwarded-for ${JSON.stringify(flags.forwardedFor)}: ${result.reason}`,
    );
  return result.callerId;
}

/** A URL drops "." and ".." as path segments (and "" leaves none): the call would go elsewhere. */
function checkMerchant(merchant: string): string {
  if (!isPathSegment(merchant))
    throw new CliError(
      `invalid --merchant: expected a merchant id; got ${JSON.stringify(merchant)}, which a URL cannot carry as a path segment`,
      EXIT.usage,
    );
  return merchant;
}
