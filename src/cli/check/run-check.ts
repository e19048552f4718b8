import { checkReportPath, fileErrorReason } from '../file-error.js';
import { statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { checkIntegration } from '../../check/check-integration.js';
import type { CheckReport } from '../../check/check-report.js';
import type { CommandOutcome } from '../../check/command-outcome.js';
import { formatReportJunit } from '../../check/format-report-junit.js';
import { formatReportMarkdown } from '../../check/format-report-markdown.js';
import { formatReportText } from '../../check/format-report-text.js';
import { readRequestRecord } from '../../core/records/record-schema.js';
import type { ReportContext } from '../../check/report-context.js';
import { nothingJudged, reportVerdict, type ReportVerdict } from '../../check/report-verdict.js';
import { describeLosses } from '../../check/recording-loss.js';
import { droppedWarning, withWarnings } from '../../check/report-warnings.js';
import type { RequestRecord } from '../../core/records/records.js';
import { adminTokenProblem } from '../../text/admin-token-problem.js';
import { escapeControls } from '../../text/escape-controls.js';
import { jsonText } from '../../text/json-text.js';
import type { CheckFlags } from './check-flags.js';
import { CliError, EXIT } from '../io.js';
import { colorsFor } from '../colors-for.js';
import { ADMIN_TOKEN, parseHttpUrl } from '../options.js';
import type { CommandContext } from '../command-context.js';
import {
  openPassthrough,
  PASSTHROUGH_BUFFER_BYTES,
  type CommandPassthrough,
} from './command-passthrough.js';
import { fromCommand } from './from-command.js';
import { readRecording, type LeftOut } from './read-recording.js';
import { createLossTally } from './recording-losses.js';
import { sendableAdminToken } from '../resolve-access-token.js';

/** How long uas's last lines may wait for a slow reader of its stderr before they are let go. */
const CLOSE_GRACE_MS = 1_000;

/**
 * Runs `uas check` and returns its exit code. With a command, what goes to stderr (the command's
 * output, and uas's lines meanwhile) never blocks uas (see {@link openPassthrough}).
 */
export async function runCheck(
  command: string[],
  flags: CheckFlags,
  context: CommandContext,
): Promise<number> {
  if (command.length === 0) return judge(command, flags, context, undefined);
  const output = openPassthrough(context.io.stderr, PASSTHROUGH_BUFFER_BYTES);
  try {
    return await judge(
      command,
      flags,
      { ...context, io: { ...context.io, stderr: output.stream } },
      output,
    );
  } finally {
    await output.close(CLOSE_GRACE_MS);
  }
}

async function judge(
  command: string[],
  flags: CheckFlags,
  context: CommandContext,
  output: CommandPassthrough | undefined,
): Promise<number> {
  const { io } = context;
  checkSources(command, flags);
  refuseSharedFiles(flags, io.cwd);
  // Refused now, not once the command has run.
  checkReportPath(flags.junit, '--junit', io.cwd);
  checkReportPath(flags.markdown, '--markdown', io.cwd);
  const warn = (line: string) => io.stderr.write(`uas: ${line}\n`);
  const journal =
    flags.journal === undefined || flags.journal === '-'
      ? flags.journal
      : resolvePath(io.cwd, flags.journal);
  const losses = createLossTally();
  const leftOut: LeftOut = {};
  // What reading the recording left out (a last line cut short) is a warning of every report.
  const readWarnings: string[] = [];
  const {
    records,
    dropped,
    command: ran,
    seed,
    warnings,
    recordError,
  } = flags.url !== undefined
    ? await fromServer(flags.url, flags.adminToken)
    : journal !== undefined
      ? {
          records: await readRecording(
            { path: journal, stdin: io.stdin },
            (line) => readWarnings.push(line),
            losses,
            leftOut,
          ),
          dropped: 0,
        }
      : await fromCommand(command, flags, context, output);
  // What could not be judged is said in every report format, and on stderr.
  const report = withWarnings(checkIntegration(records), [
    droppedWarning(dropped + (leftOut.dropped ?? 0)),
    leftOut.nextPage,
    describeLosses(losses.losses),
    ...readWarnings,
    ...(warnings ?? []),
  ]);
  const shown: ReportContext = {
    failOn: flags.failOn,
    command: ran,
    unjudged: unjudgedReason(flags, journal, ran),
    seed,
  };
  const verdict = reportVerdict(report, shown);
  const judged = report.summary.requests > 0;
  if (flags.json)
    io.stdout.write(
      `${jsonText(jsonReport(report, dropped + (leftOut.dropped ?? 0), shown, verdict))}\n`,
    );
  // With nothing judged, a list of thirteen rules not exercised would only hide the one line below.
  else if (judged)
    io.stdout.write(`${formatReportText(report, colorsFor(io.stdout, io.env), shown)}\n`);
  await writeReport(flags.junit, '--junit', () => formatReportJunit(report, shown), io.cwd);
  await writeReport(
    flags.markdown,
    '--markdown',
    () => formatReportMarkdown(report, shown),
    io.cwd,
  );
  for (const warning of report.warnings) warn(escapeControls(warning, { keepNewlines: false }));
  const unjudged = nothingJudged(report, shown);
  if (unjudged !== undefined) warn(unjudged);
  else if (ran?.failed)
    warn(`${ran.message}, so uas check fails too (the report above is what it sent)`);
  // The report is given first: what the command sent was judged, though it could not be kept.
  if (recordError !== undefined) throw recordError;
  return verdict.failed ? EXIT.failure : EXIT.ok;
}

/** Why a source held no request to the service, in the words of its flag. */
function unjudgedReason(
  flags: CheckFlags,
  journal: string | undefined,
  ran: CommandOutcome | undefined,
): string {
  if (flags.url !== undefined)
    return `the emulator at ${flags.url} has seen no request to the service (/v1/...)`;
  if (journal !== undefined)
    return `the recording ${journal === '-' ? 'on stdin' : journal} holds no request to the service (/v1/...)`;
  const stopped = ran?.stopped_by;
  // Stopped before it sent one: whether it calls the emulator is not the question then.
  if (stopped === 'timeout')
    return 'the command was stopped at its --timeout before it sent a request to the service';
  if (stopped !== undefined && stopped !== null)
    return `the command was stopped (uas got ${stopped}) before it sent a request to the service`;
  return 'the command sent no request to the service; does it call UAS_URL (with UAS_TOKEN and UAS_MERCHANT_ID)?';
}

/** Exactly one source; the flags of a command only with one. */
function checkSources(command: string[], flags: CheckFlags): void {
  const sources = [command.length > 0, flags.url !== undefined, flags.journal !== undefined];
  if (sources.filter(Boolean).length !== 1)
    throw new CliError(
      'give one of: a command after -- (uas check -- node my-test.mjs), --url, or --journal',
    );
  if (command.length > 0) {
    if (command[0]?.trim() === '')
      throw new CliError(
        'the command after -- is empty; give the command that runs your integration (uas check -- node my-test.mjs)',
      );
    return;
  }
  const [flag] = flags.commandOnly ?? [];
  if (flag !== undefined)
    throw new CliError(
      `${flag} is for the emulator uas check starts for a command (uas check ${flag} ... -- <command>)`,
    );
}

/**
 * What `--json` prints: the report, how the command ended (in the summary), `dropped`, the
 * verdict (`failed`, as the exit code says, and every reason why), and with a command its `seed`.
 */
function jsonReport(
  report: CheckReport,
  dropped: number,
  { command, seed }: ReportContext,
  verdict: ReportVerdict,
) {
  const summary = command === undefined ? report.summary : { ...report.summary, command };
  return { ...report, summary, dropped, verdict, ...(seed === undefined ? {} : { seed }) };
}

/**
 * Refuses a report file (`--junit`, `--markdown`) that is the recording read (`--journal`), the
 * one written (`--record`) or the other report: the report would replace it. Devices and pipes
 * (`/dev/null`) may be shared.
 */
function refuseSharedFiles(flags: CheckFlags, cwd: string): void {
  const reports: Array<[string, string | undefined]> = [
    ['--junit', flags.junit],
    ['--markdown', flags.markdown],
  ];
  const recordings: Array<[string, string | undefined]> = [
    ['--journal', flags.journal === '-' ? undefined : flags.journal],
    ['--record', flags.record],
  ];
  reports.forEach(([flag, file], index) => {
    if (file === undefined) return;
    const key = fileKey(cwd, file);
    if (key === undefined) return;
    for (const [other, otherFile] of [...recordings, ...reports.slice(index + 1)])
      if (otherFile !== undefined && fileKey(cwd, otherFile) === key)
        throw new CliError(
          `${flag} and ${other} name the same file, ${escapeControls(resolvePath(cwd, file))}: give the report a name of its own`,
          EXIT.usage,
        );
  });
}

/** What tells a file from another: its device and inode once it exists, else its path. */
function fileKey(cwd: string, file: string): string | undefined {
  const path = resolvePath(cwd, file);
  try {
    const found = statSync(path, { throwIfNoEntry: false });
    if (found === undefined) return `path ${path}`;
    return found.isFile() ? `file ${found.dev} ${found.ino}` : undefined;
  } catch {
    return `path ${path}`;
  }
}

/** Where the records come from, and how the command that made them ended. */
interface Recorded {
  records: RequestRecord[];
  dropped: number;
  /** How the command run by `uas check -- <command>` ended. */
  command?: CommandOutcome | undefined;
  /** The seed of that command's emulator. */
  seed?: number | undefined;
  /** What the report of that command could not give whole. */
  warnings?: Array<string | undefined> | undefined;
  /** Why that command's `--record` could not be written: said after the report. */
  recordError?: CliError | undefined;
}

/** The requests a running emulator has seen, each checked (the server is not trusted). */
async function fromServer(url: string, adminToken: string | undefined): Promise<Recorded> {
  const target = parseHttpUrl('--url', url, ADMIN_TOKEN);
  sendableAdminToken(adminToken);
  const { createDevClient } = await import('../../dev-client/dev-client.js');
  const { isDevApiError } = await import('../../dev-client/dev-api-error.js');
  let answer: { requests: unknown[]; dropped: unknown };
  try {
    answer = await createDevClient(target.href, { adminToken }).requestLog();
  } catch (error) {
    if (!isDevApiError(error)) throw error;
    // The admin token in the CLI's words (the flag, the variable), not the library's option.
    if (error.failure === 'admin-token')
      throw new CliError(
        `${error.call}: ${adminTokenProblem(adminToken !== undefined)}`,
        EXIT.usage,
      );
    throw new CliError(error.message, error.failure === 'network' ? EXIT.network : EXIT.failure);
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
  const { dropped = 0 } = answer;
  if (typeof dropped !== 'number' || !Number.isSafeInteger(dropped) || dropped < 0)
    throw new CliError(
      `the emulator at ${target.origin} answered something that is not a journal (dropped: ${escapeControls(typeof dropped === 'number' ? String(dropped) : String(JSON.stringify(dropped)), { keepNewlines: false })}, not a count of requests)`,
      EXIT.failure,
    );
  return { records, dropped };
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
    throw new CliError(`cannot write ${flag} ${path}: ${fileErrorReason(error)}`, EXIT.usage);
  }
}

export type { CheckReport };
