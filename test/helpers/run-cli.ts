import { run } from '../../src/cli/program.js';
import type { CliIO } from '../../src/cli/io.js';

/** What a command printed and its exit code. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `uas ...args` in this process, as `bin/uas.js` would, with captured output and no colour:
 * for the many cases that need no separate process (usage errors, reports, files).
 */
export async function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { NO_COLOR: '1', ...options.env },
    cwd: options.cwd ?? process.cwd(),
    onSignal: () => () => {},
  };
  const code = await run(['node', 'uas', ...args], io);
  return { code, stdout, stderr };
}
