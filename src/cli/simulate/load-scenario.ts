import { readdir } from 'node:fs/promises';
import { isConfigError } from '../../core/config/config-error.js';
import { resolveScenario, type Scenario } from '../../simulate/scenario.js';
import { shortenedBotWarning } from '../../simulate/scenario-warnings.js';
import {
  applyConfigFlags,
  configErrorToCli,
  readJsonFile,
  type ConfigFlag,
} from '../config-loader.js';
import { CliError } from '../io.js';
import { packageFile } from '../package-file.js';
import type { SimulateFlags } from './simulate-flags.js';

/** Where the bundled scenarios live. */
export const PRESETS_DIR = packageFile('fixtures/scenarios/');

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
