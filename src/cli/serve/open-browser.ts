import { spawn } from 'node:child_process';

/**
 * The command that opens a URL in the default browser: `$BROWSER` when set, else the platform's
 * own (`open` on macOS, `start` on Windows, `xdg-open` elsewhere).
 */
export function browserCommand(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
): { command: string; args: string[] } {
  const chosen = env.BROWSER?.trim();
  if (chosen !== undefined && chosen !== '') return { command: chosen, args: [] };
  if (platform === 'darwin') return { command: 'open', args: [] };
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""'] };
  return { command: 'xdg-open', args: [] };
}

/**
 * Opens `url` in a browser, best effort (`uas serve --open`): the browser runs on its own, and
 * a command that cannot start, or fails, is one line through `note`, never an error.
 */
export function openBrowser(
  url: string,
  env: Readonly<Record<string, string | undefined>>,
  note: (message: string) => void,
): void {
  const { command, args } = browserCommand(env);
  const failed = (why: string) =>
    note(`could not open a browser (${command}: ${why}); open ${url} yourself`);
  try {
    const child = spawn(command, [...args, url], { stdio: 'ignore', detached: true });
    child.once('error', (error: NodeJS.ErrnoException) => failed(error.code ?? error.message));
    child.once('exit', (code) => {
      if (code !== null && code !== 0) failed(`exit code ${code}`);
    });
    child.unref();
  } catch (error) {
    failed((error as Error).message);
  }
}
