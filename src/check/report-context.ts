import type { CommandOutcome } from './command-outcome.js';
import type { Severity } from './check-report.js';

/** What a rendered report adds to a check report: the verdict's threshold, and the command run. */
export interface ReportContext {
  /**
   * The least severity that fails the check (`--fail-on`): a finding below it is reported, not
   * failed.
   * @default 'error'
   */
  failOn?: Severity;
  /** How the command run by `uas check -- <command>` ended; absent for other sources. */
  command?: CommandOutcome | undefined;
  /**
   * Why no request was judged, when none was (such as "the command sent no request to the
   * service"): the reports say it, and fail.
   */
  unjudged?: string | undefined;
  /** The seed of the chaos of the emulator `uas check -- <command>` ran (`--seed` replays it). */
  seed?: number | undefined;
}

/** Whether a finding of `severity` fails the check under `failOn`. */
export function failsAt(severity: Severity, failOn: Severity = 'error'): boolean {
  return failOn === 'warn' || severity === 'error';
}
