import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireTool } from '../helpers/require-tool.js';

/** Whether tmux can be run here (CI installs it and must have it; a developer machine may lack it). */
export const hasTmux = requireTool(
  'tmux',
  spawnSync('tmux', ['-V']).status === 0,
  'apt-get install tmux',
);

/** A test title that says why it is skipped when tmux is absent. */
export const needsTmux = (title: string): string =>
  hasTmux ? title : `${title} (skipped: tmux is not installed here; CI installs it)`;

/**
 * tmux servers of this test process alone, so that tests never touch a person's sessions, and are
 * never touched by them: a socket of its own for each window (a server that was just told to stop
 * may still hold its socket), in a folder of its own that {@link dispose} removes.
 */
export function createTmux(name: string) {
  let folder: string | undefined;
  let started = 0;
  let socket = '';
  const tmux = (...args: string[]) =>
    execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
  const session = 'uas';
  return {
    /** Runs `command` in a new detached window of `columns` x `rows`. */
    start(command: string, columns: number, rows: number) {
      folder ??= mkdtempSync(join(tmpdir(), `uas-${name}-`));
      socket = join(folder, `tmux-${++started}`);
      tmux('new-session', '-d', '-s', session, '-x', String(columns), '-y', String(rows), command);
    },
    /** The screen as a person sees it: the visible lines, without colour. */
    screen: () => tmux('capture-pane', '-p', '-t', session),
    /** Types keys (tmux key names or text). */
    keys: (...keys: string[]) => tmux('send-keys', '-t', session, ...keys),
    resize: (columns: number, rows: number) =>
      tmux('resize-window', '-t', session, '-x', String(columns), '-y', String(rows)),
    /** Whether the session still runs (its command has not exited). */
    running: () => spawnSync('tmux', ['-S', socket, 'has-session', '-t', session]).status === 0,
    /** Ends the window's server and whatever still runs in it. */
    stop() {
      if (socket !== '') spawnSync('tmux', ['-S', socket, 'kill-server']);
      socket = '';
    },
    /** Stops the last window's server and removes the sockets' folder. */
    dispose() {
      this.stop();
      if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
      folder = undefined;
    },
  };
}
