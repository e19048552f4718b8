import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** How often {@link ProcessGroup.end} looks whether the group is gone. */
const POLL_MS = 25;

/** How long a process may take to go after SIGKILL before {@link ProcessGroup.end} stops waiting. */
const AFTER_KILL_MS = 1_000;

/**
 * The processes of a command spawned `detached` (its own process group, led by the command):
 * the command, and whatever it started and left running in the background. On Windows, where
 * there are no process groups, only the command itself.
 */
export interface ProcessGroup {
  /** Whether a process of the group still runs (a zombie, dead but not yet reaped, does not). */
  alive(): boolean;
  /**
   * Ends the group: SIGTERM to every process of it, SIGKILL to those left after `graceMs`;
   * resolves once none runs (or, at worst, shortly after the SIGKILL). Calling it again while it
   * runs returns the same promise; {@link ProcessGroup.kill} cuts the grace short.
   */
  end(graceMs: number): Promise<void>;
  /** SIGKILL to every process of the group, now. */
  kill(): void;
}

/** The process group of `child`, which must have been spawned with `detached: true`. */
export function processGroupOf(child: ChildProcess): ProcessGroup {
  const pid = child.pid;
  const grouped = process.platform !== 'win32' && pid !== undefined;
  const send = (signal: NodeJS.Signals): void => {
    try {
      if (grouped) process.kill(-pid, signal);
      else child.kill(signal);
    } catch {
      // ESRCH: nothing left to signal.
    }
  };
  const alive = (): boolean =>
    grouped ? groupRuns(pid) : child.exitCode === null && child.signalCode === null;
  let ending: Promise<void> | undefined;
  let killedAt: number | undefined;
  const kill = () => {
    killedAt ??= Date.now();
    send('SIGKILL');
  };
  const end = (graceMs: number): Promise<void> => {
    ending ??= new Promise<void>((resolve) => {
      send('SIGTERM');
      const killer = setTimeout(kill, graceMs);
      const done = () => {
        clearInterval(poll);
        clearTimeout(killer);
        resolve();
      };
      // Past the SIGKILL, a process that still shows is stuck in the kernel: stop waiting.
      const poll = setInterval(() => {
        if (!alive() || (killedAt !== undefined && Date.now() - killedAt > AFTER_KILL_MS)) done();
      }, POLL_MS);
      if (!alive()) done();
    });
    return ending;
  };
  return { alive, end, kill };
}

/**
 * Whether a process of group `pgid` runs. `kill(-pgid, 0)` also counts zombies (a process that
 * ended but whose parent has not reaped it: an orphan of a container whose first process reaps
 * nothing stays a zombie for ever), so on Linux the group's members are read from /proc.
 */
function groupRuns(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so read after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (pgrp === String(pgid) && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}
