import { render, type Instance } from 'ink';
import { buildReport, type SimulationReport } from '../simulate/report.js';
import type { ModeStats } from '../simulate/mode-stats.js';
import type { Scenario } from '../simulate/scenario.js';
import { generateTraffic } from '../simulate/traffic.js';
import { runVirtualMode } from '../simulate/virtual-run.js';
import { App } from './app.js';
import type { TuiStreams } from './run-tui.js';
import { createLocalSource } from './tui-source.js';

/** Simulated milliseconds between two frames of the watched simulation. */
const STEP_MS = 100;

class Quit extends Error {}

/**
 * Plays a virtual-time simulation on the live screen, `speed` simulated seconds per second, one
 * mode after another. Resolves with the report, or undefined when the user quits with `q`.
 */
export async function watchSimulation(
  scenario: Scenario,
  speed: number,
  streams: TuiStreams,
): Promise<SimulationReport | undefined> {
  const traffic = generateTraffic(scenario);
  const results: ModeStats[] = [];
  let requests = 0;
  let quit = false;
  let app: Instance | undefined;
  try {
    for (const [index, mode] of scenario.modes.entries()) {
      let shown = false;
      const run = await runVirtualMode(scenario, traffic, mode, {
        stepMs: STEP_MS,
        onTick: async (_now, emulator) => {
          if (quit) throw new Quit();
          if (!shown) {
            shown = true;
            const label = `mode ${mode} (${index + 1}/${scenario.modes.length}), ${speed}x virtual time`;
            const screen = (
              <App
                key={mode}
                source={createLocalSource(emulator, label)}
                title="uas simulate"
                onQuit={() => (quit = true)}
              />
            );
            if (app === undefined)
              app = render(screen, {
                stdout: streams.stdout,
                stdin: streams.stdin,
                stderr: streams.stderr,
                exitOnCtrlC: false,
                patchConsole: false,
              });
            else app.rerender(screen);
          }
          await new Promise((resolve) => setTimeout(resolve, STEP_MS / speed));
        },
      });
      results.push(run.stats);
      requests += run.requests;
    }
  } catch (error) {
    if (!(error instanceof Quit)) throw error;
  } finally {
    app?.unmount();
  }
  return quit ? undefined : buildReport(scenario, results, requests, 'virtual');
}
