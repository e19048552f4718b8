import { render, type Instance } from 'ink';
import type { SimulationReport } from '../simulate/report.js';
import type { Scenario } from '../simulate/scenario.js';
import { simulate } from '../simulate/simulation.js';
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
  let quit = false;
  let app: Instance | undefined;
  let shown: string | undefined;
  try {
    return await simulate(scenario, {
      stepMs: STEP_MS,
      onTick: async (_now, emulator, stats) => {
        if (quit) throw new Quit();
        if (shown !== stats.mode) {
          // A new mode runs on a new emulator: a new screen, keyed by the mode.
          shown = stats.mode;
          const label = `mode ${stats.mode} (${scenario.modes.indexOf(stats.mode) + 1}/${scenario.modes.length}), ${speed}x virtual time`;
          const screen = (
            <App
              key={stats.mode}
              source={createLocalSource(emulator, label, { clock: emulator.clock })}
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
  } catch (error) {
    if (error instanceof Quit) return undefined;
    throw error;
  } finally {
    app?.unmount();
  }
}
