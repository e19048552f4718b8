import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline/promises';
import { resolve as resolvePath } from 'node:path';
import { callerIdFromForwardedFor, compileRanges } from '../../client/caller-id.js';
import {
  createClient,
  type CallResult,
  type Client,
  type RetryNotice,
} from '../../client/client.js';
import { describeRateLimit } from '../../client/rate-limit-state.js';
import { parseDuration } from '../../core/config/duration.js';
import { DEMO_MERCHANT, DEMO_TOKEN } from '../../demo-config.js';
import type { CallFlags } from '../commands/call.js';
import { CliError, colorsFor, EXIT } from '../io.js';
import { isLoopbackHost, parseHttpUrl } from '../options.js';
import type { CommandContext } from '../program.js';
import { callToJson, formatCall } from './call-output.js';

/** Runs one `uas call` command and returns its exit code. */
export async function runCall(
  name: 'exists' | 'start' | 'verify' | 'flow',
  flags: CallFlags,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const err = colorsFor(io.stderr, io.env);
  const out = colorsFor(io.stdout, io.env);
  const target = parseHttpUrl('--url', flags.url);
  const token = await resolveToken(flags, target, io.cwd);
  const callerId = resolveCallerId(flags);
  const maxWaitMs = durationFlag('--max-wait', flags.maxWait);
  const timeoutMs = durationFlag('--timeout', flags.timeout);
  if (timeoutMs === 0)
    throw new CliError('invalid --timeout: expected a duration above zero, such as "10s"');
  const retry = flags.retry ? { maxAttempts: flags.maxAttempts, maxWaitMs } : (false as const);
  const warn = (line: string) => io.stderr.write(`${line}\n`);

  const onRetry = (notice: RetryNotice) => {
    const wait = `${(notice.waitMs / 1000).toFixed(1)} s`;
    const next = `attempt ${notice.attempt + 1} of ${notice.maxAttempts} in ${wait}`;
    if (notice.status === 429) {
      const state = notice.rateLimit;
      const bucket =
        state === undefined
          ? 'rate limited'
          : `${describeRateLimit(state)}${state.bucket === undefined ? '' : ` [${state.bucket}]`}`;
      warn(err.yellow(`429 on ${notice.operation}: ${bucket}; ${next}`));
    } else {
      warn(err.yellow(`${notice.status ?? notice.error} on ${notice.operation}; ${next}`));
    }
  };
  const client = createClient({
    baseUrl: target.href.replace(/\/+$/, ''),
    token,
    retry,
    timeoutMs,
    onRetry,
  });

  const merchant = () => {
    if (flags.merchant !== undefined) return flags.merchant;
    if (token === DEMO_TOKEN) return DEMO_MERCHANT;
    throw new CliError('--merchant is required (only the demo token has a default merchant)');
  };

  const report = (operation: string, result: CallResult<unknown>): number => {
    if (flags.json) io.stdout.write(`${JSON.stringify(callToJson(operation, result))}\n`);
    else io.stdout.write(`${formatCall(result, out, flags.verbose === true)}\n`);
    explain(result, flags, warn, err);
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
        target,
        context,
        flags,
        report,
      );
  }
}

async function flow(
  client: Client,
  input: {
    merchantId: string;
    email: string;
    callerId: string | undefined;
    code: string | undefined;
  },
  target: URL,
  context: CommandContext,
  flags: CallFlags,
  report: (operation: string, result: CallResult<unknown>) => number,
): Promise<number> {
  const { io } = context;
  const chalk = colorsFor(io.stdout, io.env);
  const step = (n: number, text: string) => {
    if (!flags.json) io.stdout.write(`${chalk.bold(`[${n}/4]`)} ${text}\n`);
  };
  step(1, `exists ${input.email}`);
  const exists = await client.exists({ email: input.email, callerId: input.callerId });
  let code = report('exists', exists);
  if (code !== EXIT.ok) return code;
  if (exists.data?.exists !== true) {
    io.stderr.write(
      `uas: ${input.email} is not a user of ${target.origin}; stopping before start\n`,
    );
    return EXIT.failure;
  }
  step(2, `start at merchant ${input.merchantId}`);
  code = report('start', await client.start(input));
  if (code !== EXIT.ok) return code;
  step(3, 'code');
  const otp =
    input.code ??
    (await codeFromEmulator(target, input, flags.adminToken)) ??
    (await promptForCode(io.stdin, input.email, io.stderr));
  if (!flags.json) io.stdout.write(`code ${otp}\n`);
  step(4, 'verify');
  return report('verify', await client.verify({ ...input, code: otp }));
}

/** Reads the latest code from the dev API when the target is a uas emulator; undefined otherwise. */
async function codeFromEmulator(
  target: URL,
  input: { merchantId: string; email: string },
  adminToken: string | undefined,
): Promise<string | undefined> {
  const base = target.href.replace(/\/+$/, '');
  // The dev API takes the admin token, never the access token.
  const headers: Record<string, string> =
    adminToken === undefined ? {} : { authorization: `Bearer ${adminToken}` };
  try {
    const health = await fetch(`${base}/__uas/health`, {
      headers,
      signal: AbortSignal.timeout(3000),
    });
    if (!health.ok) return undefined;
    const url = `${base}/__uas/codes/${encodeURIComponent(input.email)}?merchant_id=${encodeURIComponent(input.merchantId)}`;
    const answer = await fetch(url, { headers, signal: AbortSignal.timeout(3000) });
    if (!answer.ok) return undefined;
    const body = (await answer.json()) as { code?: unknown };
    return typeof body.code === 'string' ? body.code : undefined;
  } catch {
    return undefined;
  }
}

async function promptForCode(
  stdin: NodeJS.ReadableStream | undefined,
  email: string,
  stderr: { write(text: string): unknown },
): Promise<string> {
  if (stdin === undefined)
    throw new CliError('the target is not a uas emulator; pass the code with --code');
  const prompt = createInterface({
    input: stdin,
    output: stderr as NodeJS.WritableStream,
    terminal: false,
  });
  try {
    const answer = await Promise.race([
      prompt.question(`code sent to ${email}; enter it: `),
      new Promise<never>((_, reject) =>
        prompt.once('close', () =>
          reject(new CliError('no code was entered; pass it with --code')),
        ),
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

function explain(
  result: CallResult<unknown>,
  flags: CallFlags,
  warn: (line: string) => void,
  chalk: ReturnType<typeof colorsFor>,
): void {
  if (result.outcome === 'rate-limited') {
    const bucket = result.rateLimit?.bucket === undefined ? '' : ` (${result.rateLimit.bucket})`;
    if (result.gaveUp === 'wait-too-long') {
      warn(
        chalk.red(
          `uas: rate limited${bucket}; Retry-After ${result.headers?.get('retry-after')} s is above --max-wait ${flags.maxWait}, not retrying`,
        ),
      );
    } else {
      warn(
        chalk.red(
          `uas: still rate limited after ${result.attempts.length} attempt${result.attempts.length === 1 ? '' : 's'}${bucket}.`,
        ),
      );
    }
    warn(
      'uas: persistent 429s usually mean a missing or shared caller_id (one bucket for many users), or abuse; send a caller_id unique to each end-user.',
    );
  }
  if (result.outcome === 'network-error') {
    warn(
      chalk.red(
        `uas: cannot reach ${new URL(result.request.url).origin}: ${result.attempts[result.attempts.length - 1]?.error ?? 'no answer'}`,
      ),
    );
  }
}

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

async function resolveToken(flags: CallFlags, target: URL, cwd: string): Promise<string> {
  // An empty value (UAS_TOKEN= in the environment) counts as no token.
  const token = flags.token?.trim() === '' ? undefined : flags.token?.trim();
  if (token !== undefined && flags.tokenFile !== undefined)
    throw new CliError('give --token or --token-file, not both');
  if (token !== undefined) return token;
  if (flags.tokenFile !== undefined) {
    const file = resolvePath(cwd, flags.tokenFile);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new CliError(
        `cannot read --token-file ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
      );
    }
    if (text.trim() === '') throw new CliError(`--token-file ${file} is empty`);
    return text.trim();
  }
  if (isLoopbackHost(target.hostname)) return DEMO_TOKEN;
  throw new CliError(
    `no access token for ${target.origin}: pass --token, --token-file, or set UAS_TOKEN (the demo token is used only against a local emulator)`,
  );
}

function resolveCallerId(flags: CallFlags): string | undefined {
  if (flags.forwardedFor === undefined) {
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

function durationFlag(flag: string, text: string): number {
  const value = parseDuration(text);
  if (value === undefined)
    throw new CliError(
      `invalid ${flag}: expected a duration such as "500ms", "30s" or "2m"; got ${JSON.stringify(text)}`,
    );
  return value;
}
