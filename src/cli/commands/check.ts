import { Option, type Command } from 'commander';
import type { CheckFlags } from '../check/check-flags.js';
import type { CommandContext } from '../command-context.js';
import { declareCommand } from '../command-list.js';
import { integerIn, numberIn } from '../options.js';

/** Registers `uas check`. */
export function registerCheck(program: Command, context: CommandContext): void {
  declareCommand(program, 'check')
    .option('--url <url>', 'judge what a running uas serve has seen (its journal), instead')
    .addOption(
      new Option('--admin-token <token>', 'with --url: the dev API admin token').env(
        'UAS_ADMIN_TOKEN',
      ),
    )
    .option(
      '--journal <file>',
      'judge a recording (uas serve --record, NDJSON; - for stdin), instead',
    )
    .option('-c, --config <file>', 'config of the emulator uas starts (default: the bundled one)')
    .option(
      '--chaos <p>',
      'with a command: answer 429 at random with probability p, so retries are exercised',
      numberIn(0, 1),
      0.2,
    )
    .option(
      '--chaos-retry-after <seconds>',
      'with a command: Retry-After of the 429s --chaos injects: whole seconds, or a range drawn from (default "1-2", or the config\'s behavior.chaosRetryAfter)',
    )
    .option(
      '--seed <n>',
      'with a command: seed of the chaos (which requests get a 429, the Retry-After they ask for); default: a random one, printed in the report, so a run can be replayed',
      integerIn(0, 2 ** 32 - 1),
    )
    .addOption(
      new Option(
        '--limits <preset>',
        'with a command: config (as configured) or tight (small buckets that empty quickly)',
      )
        .choices(['config', 'tight'])
        .default('config'),
    )
    .option(
      '--timeout <duration>',
      'with a command: stop it and what it started after this long',
      '10m',
    )
    .option(
      '-p, --port <port>',
      'with a command: the port of the emulator (default: a free one)',
      integerIn(0, 65535),
    )
    .option(
      '--record <file>',
      'with a command: also write what it sent to this file (NDJSON, as uas serve --record)',
    )
    .option('--json', 'print the report as JSON (alone on stdout)')
    .option('--junit <file>', 'write a JUnit XML report: one test case per rule')
    .option('--markdown <file>', 'write the report as Markdown, for a pull-request comment')
    .addOption(
      new Option('--fail-on <severity>', 'exit 1 on a finding of this severity or worse')
        .choices(['error', 'warn'])
        .default('error'),
    )
    .addHelpText('after', CHECK_HELP)
    .action(async (command: string[], flags: CheckFlags, self: Command) => {
      // Those with a default are told apart from the default by where their value came from.
      const given = COMMAND_ONLY.filter(([name]) => self.getOptionValueSource(name) === 'cli');
      const { runCheck } = await import('../check/run-check.js');
      context.exitCode = await runCheck(
        command,
        { ...flags, commandOnly: given.map(([, flag]) => flag) },
        context,
      );
    });
}

/** The options of the emulator uas check starts for a command: each name, and its flag. */
const COMMAND_ONLY: ReadonlyArray<readonly [string, string]> = [
  ['config', '--config'],
  ['chaos', '--chaos'],
  ['chaosRetryAfter', '--chaos-retry-after'],
  ['seed', '--seed'],
  ['limits', '--limits'],
  ['timeout', '--timeout'],
  ['port', '--port'],
  ['record', '--record'],
];

/** What `uas check --help` says after the options. */
const CHECK_HELP = `
The command gets UAS_URL, UAS_TOKEN and UAS_MERCHANT_ID in its environment: point your
integration at them (one-time codes: GET $UAS_URL/__uas/codes/<email>). Its stdin is empty;
its output goes to stderr as it wrote it. It runs in a process group of its own: once it exits, what it left
running is ended; at --timeout, or on SIGINT, SIGTERM or SIGHUP to uas, the whole group is (SIGTERM,
then SIGKILL 5 s later). Exit codes: 0 clean; 1 a finding at --fail-on or worse, no request at
all, or the command failed (a non-zero exit, a signal, --timeout, uas interrupted); 2 usage;
4 the emulator of --url cannot be reached.

Test-runner timeouts: an injected 429 asks for 1 to 2 s (--chaos-retry-after), so a correct
client that retries a request twice waits up to about 4 s plus its jitter: within the 5 s that
vitest and jest give a test by default, but only just for a test that makes several calls. Give
such tests more time (vitest --testTimeout 20000, jest --testTimeout 20000), or lower --chaos.
A client that waits a fixed 1 s instead of reading Retry-After is caught at each injected 429
with probability 1/2 (the seed of the run is in the report: --seed replays it).

Examples:
  $ uas check -- node my-checkout-test.mjs
  $ uas check --limits tight --json -- npm run e2e > report.json
  $ uas check --junit report.xml --record sent.ndjson -- npm run test:integration
  $ uas check --url http://127.0.0.1:4010
  $ uas serve --record requests.ndjson   # then, after a run:
  $ uas check --journal requests.ndjson --markdown report.md
  $ gunzip -c requests.ndjson.gz | uas check --journal -`;
