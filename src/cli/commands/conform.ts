import { Option, type Command } from 'commander';
import type { ConformDeps, ConformFlags } from '../conform/run-conform.js';
import type { CommandContext } from '../command-context.js';
import { declareCommand } from '../command-list.js';
import { ACCESS_TOKEN, addUrlOption, integerIn } from '../options.js';

/** What `--help` says of `--url`. */
const URL_HELP = 'base URL of the service';

/** Default of `--max-requests`: enough for every check, --exhaust included, at the default limits. */
export const DEFAULT_MAX_REQUESTS = 25;

/** Registers `uas conform`; `deps` injects time, fetch and the run id (tests). */
export function registerConform(
  program: Command,
  context: CommandContext,
  deps: ConformDeps = {},
): void {
  // --journal sends nothing: a URL from UAS_URL is then left unused, not refused.
  addUrlOption(declareCommand(program, 'conform'), URL_HELP, ACCESS_TOKEN, 'journal')
    .addOption(
      new Option('--token <token>', 'access token (Bearer); never printed').env('UAS_TOKEN'),
    )
    .option('--token-file <file>', 'read the access token from a file')
    .option('--merchant-id <id>', "a merchant of the token's client (start, verify)")
    .option('--email <email>', 'a user the target knows (exists, start, verify)')
    .option(
      '--exhaust',
      'also empty a caller bucket (429, Retry-After, another caller_id): spends real quota',
    )
    .option(
      '--dev-api',
      "the target is a uas emulator: read the code from its dev API to check verify's success",
    )
    .addOption(
      new Option(
        '--admin-token <token>',
        "with --dev-api: the emulator's dev API admin token, when it has one",
      ).env('UAS_ADMIN_TOKEN'),
    )
    .addOption(
      new Option('--headers <style>', 'the rate-limit fields expected')
        .choices(['draft-10', 'draft-7', 'draft-6', 'x-ratelimit', 'none'])
        .default('draft-10'),
    )
    .option(
      '--max-requests <n>',
      'send at most this many requests in all (every request counts)',
      integerIn(1, 10_000),
      DEFAULT_MAX_REQUESTS,
    )
    .option('--max-wait <duration>', 'the longest Retry-After to wait (with --exhaust)', '30s')
    .option('--timeout <duration>', 'abandon a request, its body included, after this long', '10s')
    .option('--max-response <size>', 'read at most this much of a body, such as 64kb', '1mb')
    .option('--dry-run', 'list the requests it would send, and send none')
    .option(
      '--journal <file>',
      "send nothing: compare what the real service did in a recording of uas serve --upstream (--record) with the emulator's assumptions",
    )
    .option('--json', 'print the report as one JSON object')
    .option('--junit <file>', 'also write the report as JUnit XML')
    .addHelpText(
      'after',
      `
Every request carries a caller_id of this run (uas-conform-<run>-<letter>), so the token's client
bucket is left alone, and at most one wrong code is ever sent. The token is never printed.

Exit codes:
  0  every check passed or was skipped
  1  a check failed: the report names the check and the difference
  2  usage
  4  the target cannot be reached

Examples:
  $ uas conform                                   the local emulator, with the demo token
  $ uas conform --url https://sandbox.example --token-file token.txt \\
      --merchant-id 6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01 --email you@example.com --dry-run
  $ uas conform --exhaust --dev-api --junit conform.xml
  $ uas conform --journal staging.ndjson         the fidelity report of proxied traffic`,
    )
    .action(async (flags: ConformFlags, command: Command) => {
      const { runConform } = await import('../conform/run-conform.js');
      // Given on the command line, not by default or from the environment: --journal refuses them.
      const urlGiven = command.getOptionValueSource('url') === 'cli';
      const sendingGiven = SENDING.filter(
        ([name]) => command.getOptionValueSource(name) === 'cli',
      ).map(([, flag]) => flag);
      context.exitCode = await runConform({ ...flags, urlGiven, sendingGiven }, context.io, deps);
    });
}

/** The options of a run that sends requests (the suite), each name and its flag. */
const SENDING = [
  ['token', '--token'],
  ['tokenFile', '--token-file'],
  ['merchantId', '--merchant-id'],
  ['email', '--email'],
  ['exhaust', '--exhaust'],
  ['devApi', '--dev-api'],
  ['adminToken', '--admin-token'],
  ['headers', '--headers'],
  ['maxRequests', '--max-requests'],
  ['maxWait', '--max-wait'],
  ['timeout', '--timeout'],
  ['maxResponse', '--max-response'],
  ['junit', '--junit'],
] as const;
