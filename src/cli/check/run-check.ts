import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { checkIntegration } from '../../check/check-integration.js';
import type { CheckReport } from '../../check/check-report.js';
import { formatReportJunit } from '../../check/format-report-junit.js';
import { formatReportMarkdown } from '../../check/format-report-markdown.js';
import { formatReportText } from '../../check/format-report-text.js';
import { readRequestRecord } from '../../check/record-schema.js';
import type { RequestRecord } from '../../core/admin/records.js';
import { parseDuration } from '../../core/config/duration.js';
import { escapeControls } from '../../text/escape-controls.js';
import type { CheckFlags } from '../commands/check.js';
import { applyConfigFlags, configErrorToCli, loadConfigFile } from '../config-loader.js';
import { CliError, colorsFor, EXIT } from '../io.js';
import { parseHttpUrl } from '../options.js';
import type { CommandContext } from '../program.js';
import { readRecording } from './read-recording.js';

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
  const { records, dropped } =
    flags.url !== undefined
      ? await fromServer(flags.url, flags.adminToken)
      : flags.journal !== undefined
        ? { records: await readRecording(resolvePath(io.cwd, flags.journal)), dropped: 0 }
        : await fromCommand(command, flags, context);
  const report = checkIntegration(records);
  const failing = report.findings.some(
    (finding) => flags.failOn === 'warn' || finding.severity === 'error',
  );
  const judged = report.summary.requests;
  if (flags.json) io.stdout.write(`${JSON.stringify({ ...report, dropped })}\n`);
  else io.stdout.write(`${formatReportText(report, colorsFor(io.stdout, io.env))}\n`);
  await writeReport(flags.junit, '--junit', () => formatReportJunit(report), io.cwd);
  await writeReport(flags.markdown, '--markdown', () => formatReportMarkdown(report), io.cwd);
  if (dropped > 0)
    io.stderr.write(
      `uas: the journal had let ${dropped} older requests go; they are not judged (uas serve --journal-size unbounded keeps them all)\n`,
    );
  if (judged === 0) {
    io.stderr.write(
      'uas: no request reached the service, so nothing was judged: does the integration use UAS_URL?\n',
    );
    return EXIT.failure;
  }
  return failing ? EXIT.failure : EXIT.ok;
}

/** The requests a running emulator has seen, each checked (the server is not trusted). */
async function fromServer(
  url: string,
  adminToken: string | undefined,
): Promise<{ records: RequestRecord[]; dropped: number }> {
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
 * UAS_MERCHANT_ID in its environment), and returns what it sent.
 */
async function fromCommand(
  command: string[],
  flags: CheckFlags,
  context: CommandContext,
): Promise<{ records: RequestRecord[]; dropped: number }> {
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
  io.stderr.write(
    chalk.dim(
      `uas check: emulator at ${running.url} (chaos ${flags.chaos}, limits ${flags.limits}); running ${command.map((part) => JSON.stringify(part)).join(' ')}\n`,
    ),
  );
  try {
    const code = await runCommand(command, env, timeoutMs, (text) => io.stderr.write(text));
    io.stderr.write(chalk.dim(`uas check: the command exited ${code}\n`));
  } finally {
    await running.close(500);
  }
  return { records: emulator.requests(), dropped: emulator.requestsDropped };
}

/** Runs the command to its end (or the timeout); its output goes to `write`. */
function runCommand(
  command: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  write: (text: string) => void,
): Promise<number | string> {
  const [file, ...args] = command as [string, ...string[]];
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => write(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => write(chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    timer.unref();
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
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
      resolve(code ?? signal ?? 'no code');
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
