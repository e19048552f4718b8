import { describeNetworkError } from '../../http/network-error.js';
import { DEMO_MERCHANT, DEMO_TOKEN } from '../../demo-config.js';
import type { Scenario } from '../../simulate/scenario.js';
import type { SimulationReport } from '../../simulate/simulation-report.js';
import { CliError, EXIT, type CliIO } from '../io.js';
import { ACCESS_TOKEN, isLoopbackHost, parseHttpUrl } from '../options.js';
import type { SimulateFlags } from './simulate-flags.js';
import { sendable, sendableAdminToken } from '../resolve-access-token.js';

/**
 * `uas simulate --target URL`: the scenario run live against the server at `targetText`, with
 * its progress on stderr. A target that cannot be reached, or whose dev API fails, ends the
 * command with one line and its exit code.
 */
export async function simulateLive(
  flags: SimulateFlags,
  targetText: string,
  scenario: Scenario,
  io: CliIO,
): Promise<SimulationReport> {
  const { runLive } = await import('../../simulate/live-run.js');
  const target = parseHttpUrl('--target', targetText, ACCESS_TOKEN);
  const token = flags.token ?? (isLoopbackHost(target.hostname) ? DEMO_TOKEN : undefined);
  if (token === undefined)
    throw new CliError(
      `no access token for ${target.origin}: pass --token (the demo token is used only against a local emulator)`,
    );
  sendable(token, 'of --token');
  sendableAdminToken(flags.adminToken);
  const merchantId = flags.merchant ?? DEMO_MERCHANT;
  try {
    // Only whether the target answers: a redirect is an answer, and where it points is not asked.
    await fetch(target, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(5000) });
  } catch (error) {
    throw new CliError(
      `cannot reach ${target.href.replace(/\/+$/, '')}: ${describeNetworkError(error)}`,
      EXIT.network,
    );
  }
  const { isLiveRunError } = await import('../../simulate/live-run-error.js');
  try {
    return await runLive(scenario, {
      target: target.href,
      token,
      merchantId,
      adminToken: flags.adminToken,
      concurrency: flags.concurrency,
      progress: io.stderr,
    });
  } catch (error) {
    if (!isLiveRunError(error)) throw error;
    const exit = { network: EXIT.network, 'admin-token': EXIT.usage, refused: EXIT.failure };
    throw new CliError(error.message, exit[error.reason]);
  }
}
