import type { CliIO } from '../io.js';
import { CliError, EXIT } from '../io.js';
import { importOptional } from '../optional-import.js';

/**
 * The live screen of `uas serve --tui`, loaded, with the terminal it draws on: without a
 * terminal, or without ink, a one-line error (exit 2) before anything listens.
 */
export async function loadScreen(io: CliIO) {
  const terminal = io.terminal;
  if (terminal === undefined || !terminal.stdout.isTTY || !terminal.stdin.isTTY)
    throw new CliError(
      '--tui needs a terminal (stdin and stdout); use `uas top --once` for a snapshot',
      EXIT.usage,
    );
  const [{ runTui }, { createLocalSource }] = await importOptional(
    () => Promise.all([import('../../tui/run-tui.js'), import('../../tui/tui-source.js')]),
    'screen',
    'uas serve --tui',
  );
  return { runTui, createLocalSource, terminal };
}
