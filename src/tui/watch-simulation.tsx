import { render, type Instance } from 'ink';
import type { Emulator } from '../core/emulator.js';
import type { Clock } from '../core/time/clock.js';
import { systemClock } from '../runtime/system-clock.js';
import type { SimulationReport } from '../simulate/simulation-report.js';
import type { Scenario } from '../simulate/scenario.js';
import { simulate } from '../simulate/simulation.js';
import { App } from './app.js';
import { keyboardStream } from './keyboard-input.js';
import { createPlayback, type PlaybackSummary } from './playback.js';
import type { TuiStreams } from './run-tui.js';
import { createLocalSource, type TuiSource } from './tui-source.js';

/** Simulated milliseconds between two steps of the watched simulation. */
const STEP_MS = 100;

class Quit extends Error {}

/** Options of {@link watchSimulation}. */
export interface WatchOptions {
  /**
   * The wall clock the playback keeps to.
   * @default the system clock
   */
  clock?: Clock | undefined;
}

/** A watched simulation: its report, and how the playback kept to the speed asked for. */
export interface WatchedSimulation {
  report: SimulationReport;
  playback: PlaybackSummary;
}

/**
 * Plays a virtual-time simulation on the live screen, `speed` simulated seconds per second of
 * wall time, one mode after another. The screen only watches: r and R (reset) are off, since a
 * reset would change the results, and p pauses the simulation itself (no request is sent,
 * simulated time stops) until p again. Resolves with the report, the same as without the
 * screen, or undefined when the user quits with `q`.
 */
export async function watchSimulation(
  scenario: Scenario,
  speed: number,
  streams: TuiStreams,
  options: WatchOptions = {},
): Promise<WatchedSimulation | undefined> {
  const playback = createPlayback({ speed, clock: options.clock ?? systemClock });
  let quit = false;
  let app: Instance | undefined;
  const keyboard = keyboardStream(streams.stdin);
  let shown: Emulator | undefined;
  // Modes run one after another, each on a new emulator whose time starts at 0.
  let played = -1;
  const onQuit = () => {
    quit = true;
    // A paused run must not wait for a p that will not come.
    playback.resume();
  };
  try {
    const report = await simulate(scenario, {
      stepMs: STEP_MS,
      onTick: async (now, emulator, stats) => {
        if (quit) throw new Quit();
        if (shown !== emulator) {
          shown = emulator;
          played++;
          const label = `mode ${stats.mode} (${played + 1}/${scenario.modes.length}), ${speed}x virtual time`;
          const source: TuiSource = {
            ...createLocalSource(emulator, label, { clock: emulator.clock, codes: false }),
            reset: undefined,
            hold: (held) => (held ? playback.pause() : playback.resume()),
          };
          const screen = <App key={played} source={source} title="uas simulate" onQuit={onQuit} />;
          if (app === undefined)
            app = render(screen, {
              stdout: streams.stdout,
              stdin: keyboard,
              stderr: streams.stderr,
              exitOnCtrlC: false,
              patchConsole: false,
            });
          else app.rerender(screen);
        }
        await playback.at(played * scenario.durationMs + now);
        if (quit) throw new Quit();
      },
    });
    return { report, playback: playback.summary() };
  } catch (error) {
    if (error instanceof Quit) return undefined;
    throw error;
  } finally {
    app?.unmount();
  }
}
