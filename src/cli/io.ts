import { directOutput } from './direct-output.js';

/** The signals that stop uas as Ctrl-C does: a closed terminal (SIGHUP) included. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** A stream the CLI writes to. */
export interface OutputStream {
  /** Text, or bytes passed through as they are (the output of a command `uas check` runs). */
  write(text: string | Uint8Array): unknown;
  isTTY?: boolean | undefined;
  columns?: number | undefined;
  rows?: number | undefined;
  /** The process's descriptor under it (1, 2); absent in-process. */
  fd?: number | undefined;
}

/** What a command may touch of the outside world; injected so tests run commands in-process. */
export interface CliIO {
  stdout: OutputStream;
  /**
   * Where help and the version go: stdout, written straight to its descriptor when it is no
   * terminal (no stream made for it, which a start would pay). Absent: `stdout`.
   */
  helpOut?: OutputStream | undefined;
  stderr: OutputStream;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** The real terminal, for the live screen; absent when the CLI runs in-process (tests). */
  terminal?:
    | { stdout: NodeJS.WriteStream; stdin: NodeJS.ReadStream; stderr: NodeJS.WriteStream }
    | undefined;
  /** Where answers to prompts come from. */
  stdin?: NodeJS.ReadableStream | undefined;
  /**
   * Registers a handler for SIGINT, SIGTERM and SIGHUP (the terminal closed); returns the
   * function that removes it.
   */
  onSignal(handler: (signal: string) => void): () => void;
  /**
   * Once the command is done: why what it wrote to stdout was not all written (a full disk, a
   * device error), or undefined. A reader that went away (EPIPE) is not counted: `uas ... | head`
   * asked for less. Absent in-process.
   */
  outputLost?(): Promise<string | undefined>;
}

/** Exit codes of every command (docs/exit-codes.md lists them). */
export const EXIT = {
  ok: 0,
  /** The request was answered with an HTTP error, or the command failed at run time. */
  failure: 1,
  /** Bad flags, arguments, config or files. */
  usage: 2,
  /** Still rate limited (429) after every allowed attempt. */
  rateLimited: 3,
  /** The target could not be reached. */
  network: 4,
} as const;

/** An error that ends a command with a one-line message and an exit code. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
  }
}

/** Whether a value is a {@link CliError}. */
export function isCliError(value: unknown): value is CliError {
  return value instanceof CliError;
}

/**
 * A process stream that survives its reader going away: `uas serve | grep -m1 listening` closes
 * the pipe after the first line, and the server must go on serving (quietly) rather than die of
 * an unhandled EPIPE.
 */
export function resilientStream(
  stream: NodeJS.WriteStream,
  failed: (error: NodeJS.ErrnoException) => void = () => {},
): OutputStream {
  let broken = false;
  // A closed pipe (EPIPE), a full disk (ENOSPC), a device error: the output is lost, the
  // program is not (`failed` hears why, for the command's end).
  stream.on('error', (error: NodeJS.ErrnoException) => {
    broken = true;
    failed(error);
  });
  return {
    write: (text: string) => (broken ? false : stream.write(text)),
    get isTTY() {
      return stream.isTTY;
    },
    get columns() {
      return stream.columns;
    },
    get rows() {
      return stream.rows;
    },
    fd: (stream as { fd?: number }).fd,
  };
}

/**
 * The real process's streams, environment and signals. stdout, stderr, stdin and the terminal
 * are taken on first use (help and the version go straight to a file or pipe): Node makes each
 * stream (and loads the modules under a pipe or a terminal) when it is first read, and
 * `uas --help` needs none of them.
 */
export function processIO(): CliIO {
  let stdout: OutputStream | undefined;
  let helpOut: OutputStream | undefined;
  let stderr: OutputStream | undefined;
  let terminal: CliIO['terminal'];
  let lost: string | undefined;
  const failed = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') lost ??= error.message;
  };
  return {
    get stdout() {
      return (stdout ??= resilientStream(process.stdout, failed));
    },
    get helpOut() {
      return (helpOut ??= directOutput(1, () => process.stdout, failed) ?? this.stdout);
    },
    async outputLost() {
      // A stream reports a failed write on a later tick.
      if (stdout !== undefined) await new Promise((done) => setImmediate(done));
      return lost;
    },
    get stderr() {
      return (stderr ??= resilientStream(process.stderr));
    },
    env: process.env,
    cwd: process.cwd(),
    get stdin() {
      return process.stdin;
    },
    get terminal() {
      return (terminal ??= {
        stdout: process.stdout,
        stdin: process.stdin,
        stderr: process.stderr,
      });
    },
    onSignal(handler) {
      const listener = (signal: NodeJS.Signals) => handler(signal);
      for (const signal of STOP_SIGNALS) process.on(signal, listener);
      return () => {
        for (const signal of STOP_SIGNALS) process.off(signal, listener);
      };
    },
  };
}
