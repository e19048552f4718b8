import { formatMarkdown, formatReport } from '../../simulate/report-format.js';
import type { Scenario } from '../../simulate/scenario.js';
import { simulate } from '../../simulate/simulation.js';
import type { SimulationReport } from '../../simulate/simulation-report.js';
import type { PlaybackSummary } from '../../tui/playback.js';
import { pluralize } from '../../text/pluralize.js';
import type { CommandContext } from '../command-context.js';
import { readJsonFile } from '../config-loader.js';
import { checkReportPath, fileErrorReason } from '../file-error.js';
import { CliError, EXIT, type CliIO } from '../io.js';
import { colorsFor } from '../colors-for.js';
import { allowLiveScreen } from '../live-screen.js';
import { importOptional } from '../optional-import.js';
import { escapeControls } from '../safe-text.js';
import { listPresets, loadScenario, PRESETS_DIR } from './load-scenario.js';
import { simulateLive } from './simulate-live.js';
import type { SimulateFlags } from './simulate-flags.js';

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
  const [live] = flags.target === undefined ? (flags.liveOnly ?? []) : [];
  if (live !== undefined) throw new CliError(`${live} goes with --target <url> (a live run)`);
  const [watched] = flags.watch ? [] : (flags.watchOnly ?? []);
  if (watched !== undefined) throw new CliError(`${watched} goes with --watch`);
  // Refused now, not after a run of minutes.
  checkReportPath(flags.html, '--html', io.cwd);
  const scenario = await loadScenario(flags, io.cwd);
  // A run in real time says so before it starts, not minutes later in the report.
  if (flags.watch || flags.target !== undefined)
    for (const warning of scenario.warnings)
      io.stderr.write(`uas: warning: ${escapeControls(warning, { keepNewlines: false })}\n`);
  const started = performance.now();
  let report: SimulationReport;
  let playback: PlaybackSummary | undefined;
  if (flags.watch) {
    const watched = await watch(flags, scenario, io);
    if (watched === undefined) return EXIT.ok;
    report = watched.report;
    playback = watched.playback;
  } else if (flags.target !== undefined) {
    report = await simulateLive(flags, flags.target, scenario, io);
  } else {
    report = await simulate(scenario);
  }
  const seconds = (performance.now() - started) / 1000;
  if (flags.html !== undefined) await writeHtml(report, flags.html, io);
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

/** `--watch`: the simulation played on the live screen; undefined when quit before the end. */
async function watch(flags: SimulateFlags, scenario: Scenario, io: CliIO) {
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
  return watchSimulation(scenario, flags.speed, terminal);
}

/** `--html FILE`: the report as a page, written (a one-line error when it cannot be). */
async function writeHtml(report: SimulationReport, html: string, io: CliIO): Promise<void> {
  const [{ writeFile }, { resolve }, { formatHtml }] = await Promise.all([
    import('node:fs/promises'),
    import('node:path'),
    import('../../simulate/report-html.js'),
  ]);
  const file = resolve(io.cwd, html);
  try {
    await writeFile(file, formatHtml(report));
  } catch (error) {
    throw new CliError(`cannot write --html ${file}: ${fileErrorReason(error)}`, EXIT.usage);
  }
  io.stderr.write(`wrote ${file}\n`);
}
