import { spawn } from 'node:child_process';
import { MAX_TIMER_MS } from '../../client/sleep.js';
import { escapeControls } from '../../text/escape-controls.js';
import { CliError, EXIT } from '../io.js';
import { processGroupOf } from './process-group.js';

/** Why uas stopped a command before it ended by itself. */
export type StopReason = 'timeout' | 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** How a command ended. */
export interface CommandEnd {
  /** Its exit code; null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when uas stopped it: its timeout ran out, or uas itself was asked to stop. */
  stoppedBy: StopReason | undefined;
  /** Processes it started were still running when it exited; uas ended them. */
  leftRunning: boolean;
}

/** What {@link runCommand} needs besides the command. */
export interface RunCommandOptions {
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** How long the processes of a stopped command may take to exit before SIGKILL. */
  graceMs: number;
  /** Takes the command's output (stdout and stderr), bytes as it wrote them. */
  write: (chunk: Buffer) => void;
  /** Called once the command runs. */
  started: () => void;
  /** Registers a handler for SIGINT, SIGTERM and SIGHUP to uas; returns its remover. */
  onSignal: (handler: (signal: string) => void) => () => void;
}

/**
 * How long to wait for the command's output pipes to close once its process group is gone: they
 * close at once (what is left in them read) unless a process that left the group (a daemon that
 * called setsid) holds them, and then uas stops reading them.
 */
const PIPE_DRAIN_MS = 1_000;

/**
 * Runs the command in a process group of its own, to the command's end (not to the end of its
 * output: a background process it left running holds the pipes open), then ends what it left
 * running. At the timeout, or when uas gets SIGINT, SIGTERM or SIGHUP, the whole group is ended: SIGTERM,
 * then SIGKILL after the grace (at once on a second signal). A command that cannot be started is
 * a usage error.
 */
export function runCommand(command: string[], options: RunCommandOptions): Promise<CommandEnd> {
  const [file, ...args] = command as [string, ...string[]];
  const { env, timeoutMs, graceMs, write } = options;
  return new Promise((resolve, reject) => {
    let child: ReturnType<typeof spawnCommand>;
    try {
      child = spawnCommand(file, args, env);
    } catch (error) {
      // Node refuses some arguments before it tries (an empty command, a NUL byte): a usage error.
      reject(
        new CliError(
          `cannot run ${JSON.stringify(file)}: ${escapeControls((error as Error).message, { keepNewlines: false })}`,
          EXIT.usage,
        ),
      );
      return;
    }
    const group = processGroupOf(child);
    let stoppedBy: StopReason | undefined;
    let exited = false;
    // A second stop, or one once the command has exited (what it left is being ended): no grace.
    const stop = (reason: StopReason) => {
      if (stoppedBy !== undefined || exited) return group.kill();
      stoppedBy = reason;
      void group.end(graceMs);
    };
    let cancelTimer = () => {};
    let removeSignal = () => {};
    const cleanUp = () => {
      cancelTimer();
      removeSignal();
    };
    const pipesClosed = Promise.all(
      [child.stdout, child.stderr].map((pipe) => {
        pipe.on('data', write);
        return new Promise<void>((closed) => pipe.once('close', () => closed()));
      }),
    );
    child.once('spawn', () => {
      options.started();
      cancelTimer = longTimeout(() => stop('timeout'), timeoutMs);
      removeSignal = options.onSignal((signal) =>
        stop(signal === 'SIGINT' || signal === 'SIGHUP' ? signal : 'SIGTERM'),
      );
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      cleanUp();
      reject(
        new CliError(
          error.code === 'ENOENT'
            ? `cannot run ${JSON.stringify(file)}: no such command`
            : `cannot run ${JSON.stringify(file)}: ${error.message}`,
          EXIT.usage,
        ),
      );
    });
    child.once('exit', (code, signal) => {
      exited = true;
      void (async () => {
        // Left running by the command: once uas stops the group itself, what is still there is
        // on its way out, and whether its end comes before the command's is a race.
        const leftRunning = stoppedBy === undefined && group.alive();
        if (leftRunning || stoppedBy !== undefined) await group.end(graceMs);
        cleanUp();
        // What the command wrote before it exited is read by now, or as the pipes drain.
        await Promise.race([pipesClosed, delay(PIPE_DRAIN_MS)]);
        child.stdout.destroy();
        child.stderr.destroy();
        resolve({ code, signal, stoppedBy, leftRunning });
      })();
    });
  });
}

/** The command, in a process group of its own, its output piped to uas, and no stdin. */
function spawnCommand(file: string, args: string[], env: NodeJS.ProcessEnv) {
  return spawn(file, args, {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
  });
}

/** `setTimeout` for any delay: one longer than a timer holds (2^31-1 ms) is made of several. */
function longTimeout(fire: () => void, ms: number): () => void {
  let timer: NodeJS.Timeout;
  const arm = (left: number) => {
    timer = setTimeout(
      () => (left > MAX_TIMER_MS ? arm(left - MAX_TIMER_MS) : fire()),
      Math.min(left, MAX_TIMER_MS),
    );
    timer.unref();
  };
  arm(ms);
  return () => clearTimeout(timer);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
