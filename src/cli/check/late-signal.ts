import type { CliIO } from '../io.js';

/** SIGINT, SIGTERM or SIGHUP to uas once the command has ended (while uas writes what it sent). */
export interface LateSignal {
  /** From now on, a signal resolves {@link signalled} (before, the command's run handles it). */
  arm(): void;
  /** The first signal after {@link arm}. */
  readonly signalled: Promise<string>;
  remove(): void;
}

/**
 * Listens for SIGINT, SIGTERM and SIGHUP from now on, so that one that comes once the command has ended
 * never kills uas before its report: after {@link LateSignal.arm} it is told, before it is left
 * to the command's run.
 */
export function watchLateSignal(io: Pick<CliIO, 'onSignal'>): LateSignal {
  let armed = false;
  let tell = (_signal: string) => {};
  const signalled = new Promise<string>((resolve) => (tell = resolve));
  const remove = io.onSignal((signal) => {
    if (armed) tell(signal);
  });
  return { arm: () => (armed = true), signalled, remove };
}
