import type { ModeStats } from './mode-stats.js';
import { buildReport } from './build-report.js';
import type { SimulationReport } from './simulation-report.js';
import type { Scenario } from './scenario.js';
import { generateTraffic } from './traffic.js';
import { runVirtualMode, type VirtualRunOptions } from './virtual-run.js';

/** Runs every mode of a scenario in virtual time and reports them side by side. */
export async function simulate(
  scenario: Scenario,
  options: VirtualRunOptions = {},
): Promise<SimulationReport> {
  const traffic = generateTraffic(scenario);
  const results: ModeStats[] = [];
  let requests = 0;
  for (const mode of scenario.modes) {
    const run = await runVirtualMode(scenario, traffic, mode, options);
    results.push(run.stats);
    requests += run.requests;
  }
  return buildReport(scenario, results, requests, 'virtual');
}
