import { randomInt } from 'node:crypto';
import type { CommandOutcome } from '../../check/command-outcome.js';
import type { RequestRecord } from '../../core/records/records.js';
import { createSeededRandom } from '../../core/time/random.js';
import { missingUnit, parseDuration } from '../../core/config/duration.js';
import type { CheckFlags } from './check-flags.js';
import { applyConfigFlags, configErrorToCli, loadConfigFile } from '../config-loader.js';
import { CliError, EXIT, isCliError } from '../io.js';
import { escapeControls } from '../../text/escape-controls.js';
import { colorsFor } from '../colors-for.js';
import type { CommandContext } from '../command-context.js';
import { runCommand, type CommandEnd } from './run-command.js';
import { outputWarning, type CommandPassthrough } from './command-passthrough.js';
import { openCommandRecording, writeCommandRecording } from './command-recording.js';
import { watchLateSignal } from './late-signal.js';

/** Small buckets that empty after a few requests, so an integration meets 429s. */
const TIGHT_LIMITS = { client: { burst: 5, rate: '1/2s' }, caller: { burst: 3, rate: '1/2s' } };

/**
 * The Retry-After of the 429s chaos injects under `uas check`, unless the config or
 * `--chaos-retry-after` says otherwise: varied (a client that waits a fixed second is caught at
 * one injected 429 in two), and short (a correct client's two retries fit in a test runner's
 * 5 s default timeout).
 */
const CHECK_CHAOS_RETRY_AFTER = '1-2';

/** How long the processes of a stopped command may take to exit before they are killed outright. */
const KILL_GRACE_MS = 5_000;

/** How long the command's output, once it ended, may wait for a slow reader of uas's stderr. */
const OUTPUT_GRACE_MS = 1_000;

/** What `uas check -- <command>` judges: what the command sent, and how it ended. */
export interface CommandRecorded {
  records: RequestRecord[];
  dropped: number;
  command: CommandOutcome;
  /** The seed of the emulator's random source (chaos, its Retry-After): `--seed` replays it. */
  seed: number;
  /** What the report could not give whole: the command's output, a recording cut short. */
  warnings: Array<string | undefined>;
  /**
   * Why `--record` could not be written (a full disk), once the command had run: the report is
   * given first, then this ends uas check.
   */
  recordError?: CliError | undefined;
}

/**
 * Starts an emulator, runs the integration's command against it (UAS_URL, UAS_TOKEN and
 * UAS_MERCHANT_ID in its environment), and returns what it sent and how it ended. With
 * `--record`, what it sent is also written to that file, as `uas serve --record` writes it.
 */
export async function fromCommand(
  command: string[],
  flags: CheckFlags,
  context: CommandContext,
  output: CommandPassthrough | undefined,
): Promise<CommandRecorded> {
  const { io } = context;
  const timeoutMs = checkTimeout(flags.timeout);
  const seed = flags.seed ?? randomInt(2 ** 32);
  const emulator = await createCheckEmulator(flags, io.cwd, seed);
  const recording =
    flags.record === undefined ? undefined : openCommandRecording(flags.record, io.cwd);
  const { listen } = await import('../../adapters/http/http-server.js');
  const port = flags.port ?? 0;
  const running = await listen(emulator, port, '127.0.0.1').catch((error: unknown) => {
    recording?.sink.close();
    throw listenError(error as NodeJS.ErrnoException, port);
  });
  const client = emulator.config.clients[0];
  const env = {
    ...process.env,
    UAS_URL: running.url,
    UAS_TOKEN: client?.token ?? '',
    UAS_MERCHANT_ID: client?.merchants[0] ?? '',
  };
  const chalk = colorsFor(io.stderr, io.env);
  let ended: CommandEnd;
  // Whether the command's output so far ends mid-line: uas's next line then starts a line of its own.
  let midLine = false;
  const late = watchLateSignal(io);
  try {
    ended = await runCommand(command, {
      env,
      timeoutMs,
      graceMs: KILL_GRACE_MS,
      write: (chunk) => {
        if (chunk.length > 0) midLine = chunk[chunk.length - 1] !== 0x0a;
        return output === undefined ? io.stderr.write(chunk) : output.command(chunk);
      },
      onSignal: (handler) => io.onSignal(handler),
      started: () =>
        io.stderr.write(
          chalk.dim(
            `uas check: emulator at ${running.url} (chaos ${flags.chaos}, Retry-After ${describeRange(emulator.config.behavior.chaosRetryAfter)} s, seed ${seed}, limits ${flags.limits}); running ${command.map((part) => escapeControls(JSON.stringify(part))).join(' ')}\n`,
          ),
        ),
    });
    late.arm();
  } catch (error) {
    late.remove();
    recording?.sink.close();
    throw error;
  } finally {
    await running.close(500);
  }
  try {
    const outputLeftOut = (await output?.settle(OUTPUT_GRACE_MS)) ?? 0;
    const records = emulator.requests();
    const outcome = commandOutcome(ended, flags.timeout);
    io.stderr.write(`${midLine ? '\n' : ''}${chalk.dim(`uas check: ${outcome.message}`)}\n`);
    let recordError: CliError | undefined;
    const cut =
      recording === undefined
        ? undefined
        : await writeCommandRecording(recording, records, late.signalled).catch(
            (error: unknown) => {
              if (!isCliError(error)) throw error;
              recordError = error;
              return undefined;
            },
          );
    const warnings = [outputWarning(outputLeftOut), cut];
    const found = { records, dropped: emulator.requestsDropped, command: outcome, seed, warnings };
    return { ...found, recordError };
  } finally {
    late.remove();
  }
}

function describeRange({ min, max }: { min: number; max: number }): string {
  return min === max ? `${min}` : `${min}-${max}`;
}

/**
 * The `--timeout` of a command, in ms: above zero, with its unit (as every duration flag), and of
 * any length (a timer longer than 2^31-1 ms is made of several).
 */
function checkTimeout(text: string): number {
  const unit = missingUnit(text);
  if (unit !== undefined)
    throw new CliError(`invalid --timeout: ${unit}; got ${JSON.stringify(text)}`);
  const timeoutMs = parseDuration(text);
  if (timeoutMs === undefined || timeoutMs <= 0)
    throw new CliError(
      `invalid --timeout: expected a duration above zero such as "30s" or "10m"; got ${JSON.stringify(text)}`,
    );
  return timeoutMs;
}

/** The emulator `uas check -- <command>` runs: the config, with --chaos and --limits on top. */
async function createCheckEmulator(flags: CheckFlags, cwd: string, seed: number) {
  const loaded = await loadConfigFile(flags.config, cwd);
  const behavior = loaded.config.behavior as Record<string, unknown> | undefined;
  const overrides = [
    { flag: '--chaos', path: ['behavior', 'chaos'], value: flags.chaos },
    // Short waits by default, so that a correct client's retries fit a test runner's timeout.
    {
      flag: '--chaos-retry-after',
      path: ['behavior', 'chaosRetryAfter'],
      value: flags.chaosRetryAfter ?? behavior?.chaosRetryAfter ?? CHECK_CHAOS_RETRY_AFTER,
    },
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
  const [{ createEmulator }, { isConfigError }] = await Promise.all([
    import('../../emulator.js'),
    import('../../core/config/config-error.js'),
  ]);
  try {
    return createEmulator({
      config: applyConfigFlags(loaded.config, overrides),
      random: createSeededRandom(seed),
    });
  } catch (error) {
    if (!isConfigError(error)) throw error;
    throw configErrorToCli(error, overrides, `config in ${loaded.path}`);
  }
}

/** How a command ended, as the reports give it. */
export function commandOutcome(ended: CommandEnd, timeout: string): CommandOutcome {
  const { code, signal, stoppedBy, leftRunning } = ended;
  const why =
    stoppedBy === 'timeout'
      ? `the command ran longer than --timeout ${timeout} and was stopped`
      : stoppedBy !== undefined
        ? `the command was stopped: uas check got ${stoppedBy}`
        : code !== null
          ? `the command exited ${code}`
          : `the command was killed by ${signal ?? 'a signal'}`;
  return {
    exit_code: code,
    signal,
    stopped_by: stoppedBy ?? null,
    left_running: leftRunning,
    failed: code !== 0 || stoppedBy !== undefined,
    message: leftRunning ? `${why}; processes it left running were ended` : why,
  };
}

function listenError(error: NodeJS.ErrnoException, port: number): Error {
  if (error.code === 'EADDRINUSE')
    return new CliError(
      `--port ${port} is already in use on 127.0.0.1; choose another, or 0 for a free one`,
      EXIT.failure,
    );
  if (error.code === 'EACCES')
    return new CliError(
      `no permission to listen on --port ${port}; choose a port above 1023`,
      EXIT.failure,
    );
  return error;
}
