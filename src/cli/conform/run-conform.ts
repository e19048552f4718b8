import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import type { HeaderStyle } from '../../core/config/config-schema.js';
import { resolveConfig } from '../../core/config/config.js';
import { sleep } from '../../client/sleep.js';
import { createOpenApiDocument } from '../../contract/openapi-document.js';
import { trimBaseUrl } from '../../http/join-url.js';
import type { ConformOptions } from '../../conform/conform-options.js';
import { conformPlanToJson, formatConformPlan, planConform } from '../../conform/conform-plan.js';
import { createRedactor } from '../../conform/conform-redaction.js';
import { conformReportToJson } from '../../conform/conform-report-json.js';
import type { ConformHeading, ConformReport } from '../../conform/conform-report.js';
import { createConformSender } from '../../conform/conform-sender.js';
import { formatConformJunit } from '../../conform/format-conform-junit.js';
import { formatConformText } from '../../conform/format-conform-text.js';
import { runConformSuite, type ConformClock } from '../../conform/run-conform-suite.js';
import { DEMO_CONFIG, DEMO_MERCHANT, DEMO_TOKEN } from '../../demo-config.js';
import { CliError, EXIT, type CliIO } from '../io.js';
import { colorsFor } from '../colors-for.js';
import { durationFlag } from '../duration-flag.js';
import { ACCESS_TOKEN, parseHttpUrl, sizeFlag } from '../options.js';
import { resolveAccessToken, sendableAdminToken } from '../resolve-access-token.js';
import { checkReportPath, fileErrorReason } from '../file-error.js';
import { escapeControls, toSafeJson } from '../safe-text.js';

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
  journal?: string;
  /** Whether --url was given on the command line (not its default, nor UAS_URL). */
  urlGiven?: boolean;
  /** The flags of the suite (`--exhaust`, `--junit`, ...) given on the command line. */
  sendingGiven?: string[];
}

/** What `uas conform` takes from outside besides its I/O, injected by tests. */
export interface ConformDeps {
  /** @default the wall clock and setTimeout */
  clock?: ConformClock;
  /** @default global fetch */
  fetch?: typeof fetch;
  /** Makes the run's caller_ids. @default 8 random hex digits */
  runId?: string;
}

const SYSTEM_CLOCK: ConformClock = { now: () => Date.now(), sleep };

/**
 * Runs `uas conform` and returns its exit code. The token never reaches an output: every value
 * shown (a difference, a reason, the target, an error) is redacted before it is formatted.
 */
export async function runConform(
  flags: ConformFlags,
  io: CliIO,
  deps: ConformDeps = {},
): Promise<number> {
  const runsNone =
    flags.journal !== undefined ? '--journal' : flags.dryRun === true ? '--dry-run' : undefined;
  if (flags.junit !== undefined && runsNone !== undefined)
    throw new CliError(
      `--junit writes the results of the checks, and ${runsNone} runs none; leave one of them out`,
      EXIT.usage,
    );
  if (flags.journal !== undefined) {
    const other =
      flags.urlGiven === true
        ? '--url'
        : flags.dryRun === true
          ? '--dry-run'
          : flags.sendingGiven?.[0];
    if (other !== undefined)
      throw new CliError(
        `--journal reports on a recording and sends nothing; it cannot go with ${other}`,
        EXIT.usage,
      );
    return (await import('./run-fidelity.js')).runFidelity(flags.journal, flags.json === true, io);
  }
  const given = new Set(flags.sendingGiven);
  if (given.has('--max-wait') && flags.exhaust !== true)
    throw new CliError('--max-wait goes with --exhaust (the Retry-After it waits for)', EXIT.usage);
  if (given.has('--admin-token') && flags.devApi !== true)
    throw new CliError('--admin-token goes with --dev-api (the dev API it reads)', EXIT.usage);
  const base = parseHttpUrl('--url', flags.url, ACCESS_TOKEN);
  checkReportPath(flags.junit, '--junit', io.cwd);
  const token = await resolveAccessToken(flags, base, io.cwd);
  sendableAdminToken(flags.adminToken);
  const redact = createRedactor([token, flags.adminToken]);
  try {
    return await conform(flags, token, base, io, deps);
  } catch (error) {
    if (error instanceof CliError) throw new CliError(redact(error.message), error.exitCode);
    throw new Error(redact((error as Error).message));
  }
}

/** The suite's options from the flags; the demo token implies the demo user and merchant. */
function optionsOf(flags: ConformFlags, token: string, deps: ConformDeps): ConformOptions {
  const demo = token === DEMO_TOKEN;
  return {
    email: flags.email ?? (demo ? 'alice@example.com' : undefined),
    merchantId: flags.merchantId ?? (demo ? DEMO_MERCHANT : undefined),
    runId: deps.runId ?? randomBytes(4).toString('hex'),
    exhaust: flags.exhaust === true,
    devApi: flags.devApi === true,
    style: flags.headers,
    maxWaitMs: durationFlag('--max-wait', flags.maxWait),
  };
}

async function conform(
  flags: ConformFlags,
  token: string,
  base: URL,
  io: CliIO,
  deps: ConformDeps,
): Promise<number> {
  const baseUrl = trimBaseUrl(base.href);
  const options = optionsOf(flags, token, deps);
  const timeoutMs = durationFlag('--timeout', flags.timeout, true);
  const maxResponseBytes = sizeFlag('--max-response', flags.maxResponse);
  const redact = createRedactor([token, flags.adminToken]);
  // uas's own values (the target it was given, the options, results, counts) are shown as
  // they are; only text the server sent is redacted (see ProbeContext.quote).
  const heading: ConformHeading = {
    target: baseUrl,
    style: flags.headers,
    maxRequests: flags.maxRequests,
  };
  const adminToken = flags.adminToken !== undefined;
  if (flags.dryRun) {
    const plan = planConform(options);
    io.stdout.write(
      flags.json
        ? `${toSafeJson(conformPlanToJson(plan, heading, adminToken))}\n`
        : formatConformPlan(plan, heading, adminToken),
    );
    return EXIT.ok;
  }
  const sender = createConformSender({
    baseUrl,
    token,
    adminToken: flags.adminToken,
    maxRequests: flags.maxRequests,
    timeoutMs,
    maxResponseBytes,
    quote: redact,
    ...(deps.fetch === undefined ? {} : { fetch: deps.fetch }),
  });
  // The contract `uas serve` gives for the bundled config in the expected rate-limit style.
  const contract = createOpenApiDocument(
    resolveConfig({ ...DEMO_CONFIG, behavior: { headers: options.style } }),
  );
  const clock = deps.clock ?? SYSTEM_CLOCK;
  // Server text can hold the token (a server that echoes the request): each piece a report
  // quotes is redacted where it is quoted, before any output is formatted, so no format's own
  // text or escaping can meet it, and nothing uas wrote itself is touched.
  const report = await runConformSuite({ options, sender, clock, contract, quote: redact });
  await writeReports(report, heading, flags, io);
  return exitCodeOf(report, io);
}

/** Prints the report (text or JSON) and writes the JUnit file, if asked. */
async function writeReports(
  report: ConformReport,
  heading: ConformHeading,
  flags: ConformFlags,
  io: CliIO,
): Promise<void> {
  if (flags.json) io.stdout.write(`${toSafeJson(conformReportToJson(report, heading))}\n`);
  else
    io.stdout.write(
      formatConformText(report, heading, colorsFor(io.stdout, io.env), io.stdout.columns ?? 100),
    );
  if (flags.junit === undefined) return;
  const file = resolvePath(io.cwd, flags.junit);
  try {
    await writeFile(file, formatConformJunit(report, heading));
  } catch (error) {
    throw new CliError(`cannot write --junit ${file}: ${fileErrorReason(error)}`, EXIT.usage);
  }
}

/** The exit code: the target unreachable, a dev API token wanted, a failure, or none. */
function exitCodeOf(report: ConformReport, io: CliIO): number {
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
