import { Option, type Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { declareCommand } from '../command-list.js';
import type { SimulateFlags } from '../simulate/simulate-flags.js';
import { integerIn } from '../options.js';
import { MAX_SHOPPERS } from '../../simulate/simulation-config.js';

/** Registers `uas simulate`. */
export function registerSimulate(program: Command, context: CommandContext): void {
  const command = declareCommand(program, 'simulate');
  addRunOptions(addScenarioOptions(command))
    .addHelpText(
      'after',
      `
Examples:
  $ uas simulate --preset user-enumeration
  $ uas simulate --duration 1h --shoppers 1000 --bot-rate 200/s --json > report.json
  $ uas simulate --preset code-bombing --markdown > report.md
  $ uas simulate --preset user-enumeration --modes shared,per-caller --duration 15s \\
      --think-time 1s-2s --target http://127.0.0.1:4010   # live: 2 modes x 15 s
  $ uas simulate --watch --preset code-bombing --speed 30

Keys with --watch: q quit, p pause the simulation (no request is sent, simulated time stops)
and p again to go on, ↑↓ select, / filter, s sort, ? help. r and R (reset) are off: a reset
would change the simulation's results.`,
    )
    .action(async (flags: SimulateFlags, self: Command) => {
      // Those with a default are told apart from the default by where their value came from.
      const given = (names: ReadonlyArray<readonly [string, string]>) =>
        names.filter(([name]) => self.getOptionValueSource(name) === 'cli').map(([, flag]) => flag);
      const { runSimulate } = await import('../simulate/run-simulate.js');
      context.exitCode = await runSimulate(
        { ...flags, liveOnly: given(LIVE_ONLY), watchOnly: given(WATCH_ONLY) },
        context,
      );
    });
}

/** The options of a live run (`--target`), each name and its flag. */
const LIVE_ONLY = [
  ['token', '--token'],
  ['merchant', '--merchant'],
  ['adminToken', '--admin-token'],
  ['concurrency', '--concurrency'],
] as const;

/** The options of `--watch`. */
const WATCH_ONLY = [['speed', '--speed']] as const;

/** The scenario and what the flags change of it. */
function addScenarioOptions(command: Command): Command {
  return command
    .option(
      '--preset <name>',
      'a scenario from fixtures/scenarios (checkout-rush, user-enumeration, code-bombing)',
    )
    .option('--scenario <file>', 'a scenario file (JSON)')
    .option('--list-presets', 'list the bundled scenarios and exit')
    .option('--duration <duration>', 'simulated time, such as "10m" or "1h"')
    .option(
      '--seed <n>',
      'random seed: the same seed gives the same report',
      integerIn(0, 2 ** 32 - 1),
    )
    .option('--shoppers <n>', 'legitimate shoppers', integerIn(1, MAX_SHOPPERS))
    .option('--arrival-rate <rate>', 'how fast shoppers arrive, such as "1/s"')
    .option('--think-time <range>', 'pause between steps, such as "2s-8s"')
    .option('--bot-rate <rate>', 'bot requests, such as "50/s"')
    .addOption(
      new Option(
        '--bot-target <operation>',
        'what the bot hammers: exists (enumeration) or start (code bombing)',
      ).choices(['exists', 'start']),
    )
    .option('--bot-start <duration>', 'when the bot starts, such as "0s" or "1m"')
    .option('--bot-stop <duration>', 'when the bot stops (default: the end of the run)')
    .option('--modes <list>', 'comma-separated: shared, per-caller, static, rotating')
    .option('--client-burst <n>', 'client bucket size', integerIn(1, 1_000_000_000))
    .option('--client-rate <rate>', 'client bucket refill')
    .option('--caller-burst <n>', 'caller bucket size', integerIn(1, 1_000_000_000))
    .option('--caller-rate <rate>', 'caller bucket refill')
    .option('--max-attempts <n>', 'attempts a shopper makes per step on 429', integerIn(1, 10));
}

/** How the run is shown (report formats, the live screen) and where it runs (live options). */
function addRunOptions(command: Command): Command {
  return command
    .option('--json', 'print the report as JSON (byte-identical for the same seed)')
    .option('--markdown', 'print the report as Markdown')
    .option('--html <file>', 'also write the report as a self-contained HTML page')
    .option(
      '--target <url>',
      'live: drive a running emulator (or a server with the same interface) over HTTP in real time',
    )
    .option(
      '--token <token>',
      'live: access token of the target (default: the demo token on loopback)',
    )
    .option('--merchant <id>', 'live: merchant of the sign-ins (default: the demo merchant)')
    .addOption(
      new Option(
        '--admin-token <token>',
        "live: the target emulator's dev API admin token, when it has one",
      ).env('UAS_ADMIN_TOKEN'),
    )
    .option(
      '--watch',
      'play the simulation on the live bucket screen (virtual time, one mode after another)',
    )
    .option(
      '--speed <n>',
      'with --watch: simulated seconds per second of wall time (a warning says when the machine cannot keep up)',
      integerIn(1, 10_000),
      30,
    )
    .option('--concurrency <n>', 'live: most requests in flight at once', integerIn(1, 1000), 64);
}
