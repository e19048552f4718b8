import { Command, Option } from 'commander';
import type { CallFlags } from '../call/call-flags.js';
import type { CallDeps } from '../call/run-call.js';
import type { CommandContext } from '../command-context.js';
import { declareCommand } from '../command-list.js';
import { CliError } from '../io.js';
import { ACCESS_TOKEN, addUrlOption, integerIn } from '../options.js';

function addTargetOptions(command: Command): Command {
  return addUrlOption(command, 'base URL of the service', ACCESS_TOKEN)
    .addOption(new Option('--token <token>', 'access token (Bearer)').env('UAS_TOKEN'))
    .option('--token-file <file>', 'read the access token from a file')
    .option(
      '--caller-id <id>',
      'caller_id: the end-user behind this request (selects the caller bucket)',
    )
    .option(
      '--forwarded-for <list>',
      'derive caller_id from an X-Forwarded-For value, such as "203.0.113.7, 10.0.0.2"',
    )
    .option(
      '--trusted-proxies <n|list>',
      'with --forwarded-for: how many rightmost hops are your proxies, or their addresses/CIDRs/presets (loopback, private, linklocal), comma-separated',
      '0',
    )
    .option(
      '--max-attempts <n>',
      'attempts in all on 429/503 (the spec recommends at most 3)',
      integerIn(1, 10),
      3,
    )
    .option('--no-retry', 'a single attempt, no retries')
    .option('--max-wait <duration>', 'give up at once when Retry-After asks for longer', '30s')
    .option('--timeout <duration>', 'abandon an attempt, its body included, after this long', '10s')
    .option(
      '--max-response <size>',
      'read at most this much of a response body, such as 512kb or 2mb (units of 1024)',
      '1mb',
    )
    .option(
      '--json',
      'print one JSON object, keys in snake_case (outcome, status, rate-limit state, body, attempts)',
    )
    .option('-v, --verbose', 'also print the request and every response header')
    .addOption(new Option('-V').hideHelp());
}

/** Registers `uas call exists|start|verify|flow`; `deps` injects time and jitter (tests). */
export function registerCall(program: Command, context: CommandContext, deps: CallDeps = {}): void {
  const call = declareCommand(program, 'call').addHelpText(
    'after',
    `
Server text (bodies, headers, problems, errors) is printed with control characters escaped:
ESC shows as \\x1b, a lone carriage return as \\r. Redirects are never followed: a 3xx is
reported with its Location.

Exit codes:
  0  success: a 2xx with the operation's answer
  1  HTTP error (a 3xx included), or an answer that is not the API's: a 2xx body of the
     wrong shape, or a body over --max-response
  2  usage
  3  still rate limited (429) after every attempt, or a Retry-After above --max-wait
  4  network error: unreachable, reset, timed out, or a body cut short

Examples:
  $ uas call exists --email alice@example.com --caller-id 203.0.113.7
  $ uas call start --merchant 6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01 --email alice@example.com
  $ uas call verify --merchant 6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01 --email alice@example.com --code 123456
  $ uas call flow --email alice@example.com --forwarded-for "203.0.113.7, 10.0.0.2" --trusted-proxies 1`,
  );
  const run = (name: 'exists' | 'start' | 'verify' | 'flow') => async (flags: CallFlags) => {
    if (flags.V)
      throw new CliError(
        `-V is the version of uas (uas -V, before any command); for the request and every header of uas call ${name}, use -v or --verbose`,
      );
    const { runCall } = await import('../call/run-call.js');
    context.exitCode = await runCall(name, flags, context, deps);
  };
  addTargetOptions(call.command('exists').description('does a user exist? (GET /v1/users/exists)'))
    .option('--email <email>', "the user's e-mail")
    .option('--phone <number>', "the user's phone number (E.164), instead of --email")
    .action(run('exists'));
  addTargetOptions(call.command('start').description('start a passwordless sign-in (sends a code)'))
    .option('--merchant <id>', 'merchant id (default: the demo merchant with the demo token)')
    .requiredOption('--email <email>', "the user's e-mail")
    .action(run('start'));
  addTargetOptions(call.command('verify').description('verify the code of a passwordless sign-in'))
    .option('--merchant <id>', 'merchant id (default: the demo merchant with the demo token)')
    .requiredOption('--email <email>', "the user's e-mail")
    .requiredOption('--code <code>', 'the one-time code')
    .action(run('verify'));
  addTargetOptions(
    call
      .command('flow')
      .description('exists, start, read or ask for the code, verify; shows each step'),
  )
    .option('--merchant <id>', 'merchant id (default: the demo merchant with the demo token)')
    .requiredOption('--email <email>', "the user's e-mail")
    .option('--code <code>', 'the code, when you already have it')
    .addOption(
      new Option(
        '--admin-token <token>',
        "the emulator's dev API admin token, to read the code when it has one",
      ).env('UAS_ADMIN_TOKEN'),
    )
    .action(run('flow'));
}
