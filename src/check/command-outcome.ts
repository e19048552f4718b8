/** How the command run by `uas check -- <command>` ended, as `--json` and `--junit` give it. */
export interface CommandOutcome {
  /** Its exit code; null when a signal ended it. */
  exit_code: number | null;
  /** The signal that ended it, such as `"SIGTERM"`; null when it exited. */
  signal: string | null;
  /** Why uas stopped it: its `--timeout`, or the signal uas itself got; null when it ended by itself. */
  stopped_by: 'timeout' | 'SIGINT' | 'SIGTERM' | 'SIGHUP' | null;
  /** Processes it started were still running when it exited, and uas ended them. */
  left_running: boolean;
  /** A non-zero exit, a signal, or stopped by uas: the check fails whatever the rules say. */
  failed: boolean;
  /** The same in one line, such as "the command exited 3". */
  message: string;
}
