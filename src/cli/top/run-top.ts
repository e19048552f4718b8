import type { CommandContext } from '../command-context.js';
import { colorsFor } from '../colors-for.js';
import { CliError, EXIT } from '../io.js';
import { allowLiveScreen } from '../live-screen.js';
import { importOptional } from '../optional-import.js';
import { ADMIN_TOKEN, parseHttpUrl } from '../options.js';
import { sendableAdminToken } from '../resolve-access-token.js';

/** The flags of `uas top`. */
export interface TopFlags {
  url: string;
  adminToken?: string;
  once?: boolean;
  json?: boolean;
}

/** Runs `uas top`: the live screen on a terminal, one snapshot otherwise. */
export async function runTop(flags: TopFlags, context: CommandContext): Promise<void> {
  const { io } = context;
  const url = parseHttpUrl('--url', flags.url, ADMIN_TOKEN);
  sendableAdminToken(flags.adminToken);
  const { createDevApiSource } = await import('../../tui/dev-api-source.js');
  const source = createDevApiSource({ url: url.href, adminToken: flags.adminToken });
  const terminal = io.terminal;
  const live =
    !flags.once &&
    !flags.json &&
    terminal !== undefined &&
    terminal.stdout.isTTY === true &&
    terminal.stdin.isTTY === true;
  if (!live) {
    const { takeSnapshot, formatSnapshot } = await import('../../tui/snapshot.js');
    let snapshot;
    try {
      snapshot = await takeSnapshot(source);
    } catch (error) {
      throw await snapshotFailure(url.origin, flags.adminToken !== undefined, error);
    }
    io.stdout.write(
      flags.json
        ? `${JSON.stringify(snapshot, null, 2)}\n`
        : `${formatSnapshot(snapshot, colorsFor(io.stdout, io.env))}\n`,
    );
    return;
  }
  allowLiveScreen();
  const { runTui } = await importOptional(
    () => import('../../tui/run-tui.js'),
    'screen',
    'uas top',
  );
  await runTui(source, 'uas top', terminal);
}

/**
 * Why a snapshot could not be taken, as the error `uas top` ends with: a missing or refused admin
 * token is a usage error (2), an unreachable emulator a network one (4), anything else a failure.
 */
async function snapshotFailure(
  origin: string,
  tokenSent: boolean,
  error: unknown,
): Promise<CliError> {
  const [{ isDevApiError }, { describeNetworkError }, { adminTokenProblem }] = await Promise.all([
    import('../../dev-client/dev-api-error.js'),
    import('../../http/network-error.js'),
    import('../../text/admin-token-problem.js'),
  ]);
  const where = `cannot read the dev API of ${origin}`;
  if (!isDevApiError(error))
    return new CliError(`${where}: ${describeNetworkError(error)}`, EXIT.network);
  switch (error.failure) {
    case 'admin-token':
      return new CliError(`${where}: ${adminTokenProblem(tokenSent)}`, EXIT.usage);
    case 'network':
      // The client's message names the call and the base URL again: keep only why.
      return new CliError(
        `${where}: ${/: cannot reach \S+: (.*)$/s.exec(error.message)?.[1] ?? error.message}`,
        EXIT.network,
      );
    default:
      return new CliError(`${where}: ${error.message}`, EXIT.failure);
  }
}
