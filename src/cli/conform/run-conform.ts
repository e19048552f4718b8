import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import type { HeaderStyle } from '../../core/config/config-schema.js';
import { sleep } from '../../client/sleep.js';
import { DEMO_MERCHANT, DEMO_TOKEN } from '../../demo-config.js';
import { CliError, colorsFor, EXIT, type CliIO } from '../io.js';
import { durationFlag, parseHttpUrl, resolveAccessToken, sizeFlag } from '../options.js';
import type { CommandContext } from '../command-context.js';
import { escapeControls, toSafeJson } from '../safe-text.js';
import type { SuiteOptions } from './conform-check.js';
import {
  formatReportJunit,
  formatReportText,
  reportToJson,
  type ReportHeading,
} from './conform-report.js';
import { createRedactor, redactValues } from './conform-redaction.js';
import { createSender, describeRequest } from './conform-sender.js';
import { CHECKS, runSuite, type SuiteClock } from './conform-suite.js';

/** The flags of `uas conform`, as commander parses them. */
export interface ConformFlags {
  url: string;
  token?: string;
  tokenFile?: string;
  merchantId?: string;
  email?: string;
  exhaust?: boolean;
  devApi?: boolean;
  adminToken?: string;
  headers: HeaderStyle;
  maxRequests: number;
  maxWait: string;
  timeout: string;
  maxResponse: string;
  dryRun?: boolean;
  json?: boolean;
  junit?: string;
}

/** What `uas conform` takes from outside besides its I/O, injected by tests. */
export interface ConformDeps {
  /** @default the wall clock and setTimeout */
  clock?: SuiteClock;
  /** @default global fetch */
  fetch?: typeof fetch;
  /** Makes the run's caller_ids. @default 8 random hex digits */
  runId?: string;
}

const SYSTEM_CLOCK: SuiteClock = { now: () => Date.now(), sleep };

/**
 * Runs `uas conform` and returns its exit code. The token never reaches an output: every value
 * shown (a difference, a reason, the target, an error) is redacted before it is formatted.
 */
export async function runConform(
  flags: ConformFlags,
  context: CommandContext,
  deps: ConformDeps = {},
): Promise<number> {
  const base = parseHttpUrl('--url', flags.url);
  const token = await resolveAccessToken(flags, base, context.io.cwd);
  const redact = createRedactor([token, flags.adminToken]);
  try {
    return await conform(flags, token, base, context.io, deps);
  } catch (error) {
    if (error instanceof CliError) throw new CliError(redact(error.message), error.exitCode);
    throw new Error(redact((error as Error).message));
  }
}

async function conform(
  flags: ConformFlags,
  token: string,
  base: URL,
  io: CliIO,
  deps: ConformDeps,
): Promise<number> {
  const baseUrl = base.href.replace(/\/+$/, '');
  const demo = token === DEMO_TOKEN;
  const options: SuiteOptions = {
    email: flags.email ?? (demo ? 'alice@example.com' : undefined),
    merchantId: flags.merchantId ?? (demo ? DEMO_MERCHANT : undefined),
    runId: deps.runId ?? randomBytes(4).toString('hex'),
    exhaust: flags.exhaust === true,
    devApi: flags.devApi === true,
    style: flags.headers,
    maxWaitMs: durationFlag('--max-wait', flags.maxWait),
  };
  const timeoutMs = durationFlag('--timeout', flags.timeout, true);
  const maxResponseBytes = sizeFlag('--max-response', flags.maxResponse);
  const redact = createRedactor([token, flags.adminToken]);
  const heading: ReportHeading = redactValues(
    { target: baseUrl, style: flags.headers, maxRequests: flags.maxRequests },
    redact,
  );

  if (flags.dryRun) {
    io.stdout.write(
      formatPlan(redactValues(options, redact), heading, {
        json: flags.json === true,
        adminToken: flags.adminToken !== undefined,
      }),
    );
    return EXIT.ok;
  }
  const sender = createSender({
    baseUrl,
    token,
    adminToken: flags.adminToken,
    maxRequests: flags.maxRequests,
    timeoutMs,
    maxResponseBytes,
    ...(deps.fetch === undefined ? {} : { fetch: deps.fetch }),
  });
  // Server text can hold the token (a server that echoes the request): each value that does is
  // redacted before any output is formatted, so no format's own text or escaping can meet it.
  const report = redactValues(await runSuite(options, sender, deps.clock ?? SYSTEM_CLOCK), redact);
  if (flags.json) io.stdout.write(`${toSafeJson(reportToJson(report, heading))}\n`);
  else
    io.stdout.write(
      formatReportText(report, heading, colorsFor(io.stdout, io.env), io.stdout.columns ?? 100),
    );
  if (flags.junit !== undefined) {
    const file = resolvePath(io.cwd, flags.junit);
    try {
      await writeFile(file, formatReportJunit(report, heading));
    } catch (error) {
      throw new CliError(`cannot write --junit ${file}: ${(error as Error).message}`, EXIT.failure);
    }
  }
  if (report.unreachable !== undefined) {
    io.stderr.write(`uas: ${escapeControls(report.unreachable, { keepNewlines: false })}\n`);
    return EXIT.network;
  }
  if (report.adminToken !== undefined) {
    io.stderr.write(`uas: ${escapeControls(report.adminToken, { keepNewlines: false })}\n`);
    return EXIT.usage;
  }
  return report.checks.some((check) => check.status === 'fail') ? EXIT.failure : EXIT.ok;
}

/** What --dry-run prints: every check, and the requests it would send. Nothing is sent. */
function formatPlan(
  options: SuiteOptions,
  heading: ReportHeading,
  { json, adminToken }: { json: boolean; adminToken: boolean },
): string {
  const checks = CHECKS.map((check) => {
    const unavailable = check.unavailable(options);
    return {
      id: check.id,
      title: check.title,
      skipped: unavailable ?? null,
      requests: unavailable !== undefined ? [] : check.plan(options),
    };
  });
  if (json)
    return `${toSafeJson({
      dry_run: true,
      target: heading.target,
      max_requests: heading.maxRequests,
      checks: checks.map((check) => ({
        ...check,
        requests: check.requests.map(({ request, repeat }) => ({
          method: request.method,
          path: request.path,
          authorization:
            request.auth === 'token'
              ? '<access token>'
              : request.auth === 'admin'
                ? adminToken
                  ? '<admin token>'
                  : null
                : request.auth === 'none'
                  ? null
                  : request.auth.authorization,
          body: request.body ?? null,
          repeat: repeat ?? null,
        })),
      })),
    })}\n`;
  const lines = [
    `uas conform --dry-run: nothing is sent. ${heading.target}, at most ${heading.maxRequests} requests:`,
  ];
  for (const check of checks) {
    lines.push('', `${check.id}: ${check.title}`);
    if (check.skipped !== null) lines.push(`  skipped: ${check.skipped}`);
    for (const { request, repeat } of check.requests)
      lines.push(
        ...describeRequest(request, adminToken).map((line) => `  ${line}`),
        ...(repeat === undefined ? [] : [`    (${repeat})`]),
      );
    if (check.skipped === null && check.requests.length === 0)
      lines.push('  no request: judges the answers of the checks above');
  }
  return `${escapeControls(lines.join('\n'))}\n`;
}
