import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describeNetworkError } from '../../client/network-error.js';
import { isConfigError } from '../../core/config/config-error.js';
import { formatMarkdown, formatReport } from '../../simulate/report-format.js';
import type { SimulationReport } from '../../simulate/simulation-report.js';
import { resolveScenario, type Scenario } from '../../simulate/scenario.js';
import { shortenedBotWarning } from '../../simulate/scenario-warnings.js';
import { simulate } from '../../simulate/simulation.js';
import type { PlaybackSummary } from '../../tui/playback.js';
import type { SimulateFlags } from './simulate-flags.js';
import {
  applyConfigFlags,
  configErrorToCli,
  readJsonFile,
  type ConfigFlag,
} from '../config-loader.js';
import { DEMO_MERCHANT, DEMO_TOKEN } from '../../demo-config.js';
import { CliError, colorsFor, EXIT } from '../io.js';
import { importOptional } from '../optional-import.js';
import { allowLiveScreen } from '../live-screen.js';
import { isLoopbackHost, parseHttpUrl } from '../options.js';
import { escapeControls } from '../safe-text.js';
import { pluralize } from '../../text/pluralize.js';
import type { CommandContext } from '../command-context.js';

/** Where the bundled scenarios live. */
export const PRESETS_DIR = fileURLToPath(new URL('../../../fixtures/scenarios/', import.meta.url));

/** Names of the bundled scenarios. */
export async function listPresets(): Promise<string[]> {
  return (await readdir(PRESETS_DIR))
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .sort();
}

function scenarioFlags(flags: SimulateFlags): ConfigFlag[] {
  const modes = flags.modes
    ?.split(',')
    .map((mode) => mode.trim())
    .filter((mode) => mode !== '');
  const all: Array<[string, string[], unknown]> = [
    ['--duration', ['duration'], flags.duration],
    ['--seed', ['seed'], flags.seed],
    ['--shoppers', ['shoppers', 'count'], flags.shoppers],
    ['--arrival-rate', ['shoppers', 'arrivalRate'], flags.arrivalRate],
    ['--think-time', ['shoppers', 'thinkTime'], flags.thinkTime],
    ['--bot-rate', ['bot', 'rate'], flags.botRate],
    ['--bot-target', ['bot', 'target'], flags.botTarget],
    ['--bot-start', ['bot', 'start'], flags.botStart],
    ['--bot-stop', ['bot', 'stop'], flags.botStop],
    ['--modes', ['modes'], modes],
    ['--client-burst', ['limits', 'client', 'burst'], flags.clientBurst],
    ['--client-rate', ['limits', 'client', 'rate'], flags.clientRate],
    ['--caller-burst', ['limits', 'caller', 'burst'], flags.callerBurst],
    ['--caller-rate', ['limits', 'caller', 'rate'], flags.callerRate],
    ['--max-attempts', ['retry', 'maxAttempts'], flags.maxAttempts],
  ];
  return all
    .filter(([, , value]) => value !== undefined)
    .map(([flag, path, value]) => ({ flag, path, value }));
}

/** Loads the preset or scenario file, applies flags, and validates: one-line errors naming the field. */
export async function loadScenario(flags: SimulateFlags, cwd: string): Promise<Scenario> {
  if (flags.preset !== undefined && flags.scenario !== undefined)
    throw new CliError('give --preset or --scenario, not both');
  let base: Record<string, unknown> = {};
  let source = 'the flags';
  if (flags.preset !== undefined) {
    const presets = await listPresets();
    if (!presets.includes(flags.preset))
      throw new CliError(
        `unknown --preset ${JSON.stringify(flags.preset)}; choose one of ${presets.join(', ')}`,
      );
    base = (await readJsonFile(`${PRESETS_DIR}${flags.preset}.json`, 'scenario')) as Record<
      string,
      unknown
    >;
    source = `preset ${flags.preset}`;
  } else if (flags.scenario !== undefined) {
    const { resolve } = await import('node:path');
    const file = resolve(cwd, flags.scenario);
    const loaded = await readJsonFile(file, 'scenario file');
    if (typeof loaded !== 'object' || loaded === null || Array.isArray(loaded))
      throw new CliError(`scenario file ${file} must hold a JSON object`);
    base = loaded as Record<string, unknown>;
    source = `scenario file ${file}`;
  }
  const overrides = scenarioFlags(flags);
  let scenario: Scenario;
  try {
    scenario = resolveScenario(applyConfigFlags(base, overrides));
  } catch (error) {
    if (!isConfigError(error)) throw error;
    throw configErrorToCli(error, overrides, `scenario (${source})`);
  }
  if (flags.duration === undefined) return scenario;
  // The bot's share of the run as the scenario is written, to say when --duration shrinks it.
  let asWritten: Scenario;
  try {
    asWritten = resolveScenario(
      applyConfigFlags(
        base,
        overrides.filter((override) => override.flag !== '--duration'),
      ),
    );
  } catch {
    return scenario;
  }
  const shortened = shortenedBotWarning(asWritten, scenario, `--duration ${flags.duration}`);
  return shortened === undefined
    ? scenario
    : { ...scenario, warnings: [...scenario.warnings, shortened] };
}

/** Runs `uas simulate` and returns its exit code. */
export async function runSimulate(flags: SimulateFlags, context: CommandContext): Promise<number> {
  const { io } = context;
  if (flags.listPresets) {
    for (const name of await listPresets()) {
      const preset = (await readJsonFile(`${PRESETS_DIR}${name}.json`, 'scenario')) as {
        description?: string;
      };
      io.stdout.write(
        `${name.padEnd(18)} ${escapeControls(String(preset.description ?? ''), { keepNewlines: false })}\n`,
      );
    }
    return EXIT.ok;
  }
  if (flags.json && flags.markdown) throw new CliError('give --json or --markdown, not both');
  const scenario = await loadScenario(flags, io.cwd);
  // A run in real time says so before it starts, not minutes later in the report.
  if (flags.watch || flags.target !== undefined)
    for (const warning of scenario.warnings)
      io.stderr.write(`uas: warning: ${escapeControls(warning, { keepNewlines: false })}\n`);
  const started = performance.now();
  let report: SimulationReport;
  let playback: PlaybackSummary | undefined;
  if (flags.watch) {
    if (flags.target !== undefined)
      throw new CliError('--watch plays a virtual-time simulation; it does not go with --target');
    const terminal = io.terminal;
    if (terminal === undefined || !terminal.stdout.isTTY || !terminal.stdin.isTTY)
      throw new CliError('--watch needs a terminal (stdin and stdout)');
    allowLiveScreen();
    const { watchSimulation } = await importOptional(
      () => import('../../tui/watch-simulation.js'),
      'screen',
      'uas simulate --watch',
    );
    const watched = await watchSimulation(scenario, flags.speed, terminal);
    if (watched === undefined) return EXIT.ok;
    report = watched.report;
    playback = watched.playback;
  } else if (flags.target !== undefined) {
    const { runLive } = await import('../../simulate/live-run.js');
    const target = parseHttpUrl('--target', flags.target);
    const token = flags.token ?? (isLoopbackHost(target.hostname) ? DEMO_TOKEN : undefined);
    if (token === undefined)
      throw new CliError(
        `no access token for ${target.origin}: pass --token (the demo token is used only against a local emulator)`,
      );
    const merchantId = flags.merchant ?? DEMO_MERCHANT;
    try {
      await fetch(target, { method: 'HEAD', signal: AbortSignal.timeout(5000) });
    } catch (error) {
      throw new CliError(
        `cannot reach ${target.origin}: ${describeNetworkError(error)}`,
        EXIT.network,
      );
    }
    const { isLiveRunError } = await import('../../simulate/live-run-error.js');
    try {
      report = await runLive(scenario, {
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
  } else {
    report = await simulate(scenario);
  }
  const seconds = (performance.now() - started) / 1000;
  if (flags.html !== undefined) {
    const [{ writeFile }, { resolve }, { formatHtml }] = await Promise.all([
      import('node:fs/promises'),
      import('node:path'),
      import('../../simulate/report-html.js'),
    ]);
    const file = resolve(io.cwd, flags.html);
    try {
      await writeFile(file, formatHtml(report));
    } catch (error) {
      throw new CliError(
        `cannot write --html ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        EXIT.usage,
      );
    }
    io.stderr.write(`wrote ${file}\n`);
  }
  if (flags.json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else if (flags.markdown) io.stdout.write(formatMarkdown(report));
  else
    io.stdout.write(
      `${formatReport(report, colorsFor(io.stdout, io.env), io.stdout.columns ?? 80)}\n`,
    );
  if (playback !== undefined) {
    io.stderr.write(playbackLine(playback));
    return EXIT.ok;
  }
  const rate = Math.round(report.simulated_requests / Math.max(seconds, 1e-9));
  io.stderr.write(
    `simulated ${pluralize(report.simulated_requests, 'request')} in ${seconds.toFixed(2)} s (${rate} requests/s of wall time)\n`,
  );
  return EXIT.ok;
}

/**
 * How a watched simulation kept to `--speed`: the simulated and wall time it took (pauses left
 * out), and a warning when the machine could not keep up rather than a speed it did not reach.
 */
export function playbackLine(playback: PlaybackSummary): string {
  const simulated = playback.simulatedMs / 1000;
  const wall = playback.wallMs / 1000;
  const paused =
    playback.pausedMs > 0 ? ` (and ${(playback.pausedMs / 1000).toFixed(1)} s paused)` : '';
  const line = `played ${simulated} s of simulated time in ${wall.toFixed(1)} s${paused}`;
  if (!playback.behind) return `${line}: ${playback.speed}x, as asked\n`;
  const kept = playback.simulatedMs / Math.max(playback.wallMs, 1);
  return `${line}\nuas: warning: this machine could not keep up with --speed ${playback.speed}: the run played at ${kept.toFixed(1)}x\n`;
}
