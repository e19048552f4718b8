import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { checkIntegration } from '../../check/check-integration.js';
import type { CheckReport } from '../../check/check-report.js';
import { formatReportJunit } from '../../check/format-report-junit.js';
import { formatReportMarkdown } from '../../check/format-report-markdown.js';
import { formatReportText } from '../../check/format-report-text.js';
import { readRequestRecord } from '../../check/record-schema.js';
import { describeLosses } from '../../check/recording-loss.js';
import { droppedWarning, withWarnings } from '../../check/report-warnings.js';
import type { RequestRecord } from '../../core/admin/records.js';
import { parseDuration } from '../../core/config/duration.js';
import { escapeControls } from '../../text/escape-controls.js';
import type { CheckFlags } from '../commands/check.js';
import { applyConfigFlags, configErrorToCli, loadConfigFile } from '../config-loader.js';
import { CliError, colorsFor, EXIT } from '../io.js';
import { parseHttpUrl } from '../options.js';
import type { CommandContext } from '../program.js';
import { readRecording } from './read-recording.js';
import { createLossTally } from './recording-losses.js';

/** Small buckets that empty after a few requests, so an integration meets 429s. */
const TIGHT_LIMITS = { client: { burst: 5, rate: '1/2s' }, caller: { burst: 3, rate: '1/2s' } };

/** Runs `uas check` and returns its exit code. */
export async function runCheck(
  command: string[],
  flags: CheckFlags,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const sources = [command.length > 0, flags.url !== undefined, flags.journal !== undefined];
  if (sources.filter(Boolean).length !== 1)
    throw new CliError(
      'give one of: a command after -- (uas check -- node my-test.mjs), --url, or --journal',
    );
  const warn = (line: string) => io.stderr.write(`uas: ${line}\n`);
  const journal = flags.journal === undefined ? undefined : resolvePath(io.cwd, flags.journal);
  const losses = createLossTally();
  const { records, dropped, commandFailed } =
    flags.url !== undefined
      ? await fromServer(flags.url, flags.adminToken)
      : journal !== undefined
        ? { records: await readRecording(journal, warn, losses), dropped: 0 }
        : await fromCommand(command, flags, context);
  // What could not be judged is said in every report format, and on stderr.
  const report = withWarnings(checkIntegration(records), [
    droppedWarning(dropped),
    describeLosses(losses.losses),
  ]);
  const failing =
    report.findings.some((finding) => flags.failOn === 'warn' || finding.severity === 'error') ||
    (flags.failOn === 'warn' && report.warnings !== undefined);
  const judged = report.summary.requests > 0;
  if (flags.json) io.stdout.write(`${JSON.stringify({ ...report, dropped })}\n`);
  // With nothing judged, a list of thirteen rules not exercised would only hide the one line below.
  else if (judged) io.stdout.write(`${formatReportText(report, colorsFor(io.stdout, io.env))}\n`);
  await writeReport(flags.junit, '--junit', () => formatReportJunit(report), io.cwd);
  await writeReport(flags.markdown, '--markdown', () => formatReportMarkdown(report), io.cwd);
  for (const warning of report.warnings ?? [])
    warn(escapeControls(warning, { keepNewlines: false }));
  if (!judged) {
    warn(
      `nothing was judged: ${
        flags.url !== undefined
          ? `the emulator at ${flags.url} has seen no request to the service (/v1/...)`
          : journal !== undefined
            ? `the recording ${journal} holds no request to the service (/v1/...)`
            : 'the command sent no request to the service; does it call UAS_URL (with UAS_TOKEN and UAS_MERCHANT_ID)?'
      }`,
    );
    return EXIT.failure;
  }
  if (commandFailed !== undefined) {
    warn(`${commandFailed}, so uas check fails too (the report above is what it sent)`);
    return EXIT.failure;
  }
  return failing ? EXIT.failure : EXIT.ok;
}

/** Where the records come from, and whether the command that made them failed. */
interface Recorded {
  records: RequestRecord[];
  dropped: number;
  /** Why the command run by `uas check -- <command>` failed: its exit code, signal or timeout. */
  commandFailed?: string | undefined;
}

/** The requests a running emulator has seen, each checked (the server is not trusted). */
async function fromServer(url: string, adminToken: string | undefined): Promise<Recorded> {
  const target = parseHttpUrl('--url', url);
  const { createDevClient } = await import('../../dev-client/dev-client.js');
  const { isDevApiError } = await import('../../dev-client/dev-api-error.js');
  let answer: { requests: unknown[]; dropped: unknown };
  try {
    answer = await createDevClient(target.href, { adminToken }).requestLog();
  } catch (error) {
    if (!isDevApiError(error)) throw error;
    const exit =
      error.failure === 'network'
        ? EXIT.network
        : error.failure === 'admin-token'
          ? EXIT.usage
          : EXIT.failure;
    throw new CliError(error.message, exit);
  }
  if (!Array.isArray(answer.requests))
    throw new CliError(
      `the emulator at ${target.origin} answered no list of requests`,
      EXIT.failure,
    );
  const records = answer.requests.map((value, index) => {
    const read = readRequestRecord(value);
    if (!read.ok)
      throw new CliError(
        `the emulator at ${target.origin} answered something that is not a request record (record ${index + 1}: ${escapeControls(read.error, { keepNewlines: false })})`,
        EXIT.failure,
      );
    return read.record;
  });
  return { records, dropped: typeof answer.dropped === 'number' ? answer.dropped : 0 };
}

/**
 * Starts an emulator, runs the integration's command against it (UAS_URL, UAS_TOKEN and
 * UAS_MERCHANT_ID in its environment), and returns what it sent, and whether the command failed.
 */
async function fromCommand(
  command: string[],
  flags: CheckFlags,
  context: CommandContext,
): Promise<Recorded> {
  const { io } = context;
  const timeoutMs = parseDuration(flags.timeout);
  if (timeoutMs === undefined || timeoutMs <= 0)
    throw new CliError(
      `invalid --timeout: expected a duration such as "30s" or "10m"; got ${JSON.stringify(flags.timeout)}`,
    );
  const loaded = await loadConfigFile(flags.config, io.cwd);
  const overrides = [
    { flag: '--chaos', path: ['behavior', 'chaos'], value: flags.chaos },
    { flag: 'journal', path: ['journal', 'size'], value: 'unbounded' },
    ...(flags.limits === 'tight'
      ? [
          {
            flag: '--limits tight',
            path: ['limits'],
            value: { ...(loaded.config.limits as object), ...TIGHT_LIMITS },
          },
        ]
      : []),
  ];
  const [{ createEmulator }, { isConfigError }, { listen }] = await Promise.all([
    import('../../emulator.js'),
    import('../../core/config/config-error.js'),
    import('../../adapters/http/http-server.js'),
  ]);
  let emulator;
  try {
    emulator = createEmulator({ config: applyConfigFlags(loaded.config, overrides) });
  } catch (error) {
    if (!isConfigError(error)) throw error;
    throw configErrorToCli(error, overrides, `config in ${loaded.path}`);
  }
  const running = await listen(emulator, 0, '127.0.0.1');
  const client = emulator.config.clients[0];
  const env = {
    ...process.env,
    UAS_URL: running.url,
    UAS_TOKEN: client?.token ?? '',
    UAS_MERCHANT_ID: client?.merchants[0] ?? '',
  };
  const chalk = colorsFor(io.stderr, io.env);
  let ended: CommandEnd;
  try {
    ended = await runCommand(
      command,
      env,
      timeoutMs,
      (text) => io.stderr.write(text),
      () =>
        io.stderr.write(
          chalk.dim(
            `uas check: emulator at ${running.url} (chaos ${flags.chaos}, limits ${flags.limits}); running ${command.map((part) => JSON.stringify(part)).join(' ')}\n`,
          ),
        ),
    );
  } finally {
    await running.close(500);
  }
  const outcome = ended.timedOut
    ? `the command ran longer than --timeout ${flags.timeout} and was stopped`
    : ended.code !== null
      ? `the command exited ${ended.code}`
      : `the command was killed by ${ended.signal ?? 'a signal'}`;
  io.stderr.write(chalk.dim(`uas check: ${outcome}\n`));
  return {
    records: emulator.requests(),
    dropped: emulator.requestsDropped,
    commandFailed: ended.code === 0 && !ended.timedOut ? undefined : outcome,
  };
}

/** How a command ended. */
interface CommandEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
}

/** How long a command stopped for its timeout may take to exit before it is killed outright. */
const KILL_GRACE_MS = 5_000;

/**
 * Runs the command to its end, or to the timeout (SIGTERM, then SIGKILL if it lingers); its
 * output goes to `write`. `started` is called once it runs; a command that cannot be started
 * is a usage error.
 */
function runCommand(
  command: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  write: (text: string) => void,
  started: () => void,
): Promise<CommandEnd> {
  const [file, ...args] = command as [string, ...string[]];
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.once('spawn', started);
    child.stdout.on('data', (chunk: Buffer) => write(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => write(chunk.toString()));
    let timedOut = false;
    let killer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      killer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
      killer.unref();
    }, timeoutMs);
    timer.unref();
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      clearTimeout(killer);
      reject(
        new CliError(
          error.code === 'ENOENT'
            ? `cannot run ${JSON.stringify(file)}: no such command`
            : `cannot run ${JSON.stringify(file)}: ${error.message}`,
          EXIT.usage,
        ),
      );
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(killer);
      resolve({ code, signal, timedOut });
    });
  });
}

async function writeReport(
  file: string | undefined,
  flag: string,
  render: () => string,
  cwd: string,
): Promise<void> {
  if (file === undefined) return;
  const path = resolvePath(cwd, file);
  try {
    await writeFile(path, render());
  } catch (error) {
    throw new CliError(
      `cannot write ${flag} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      EXIT.usage,
    );
  }
}

export type { CheckReport };
