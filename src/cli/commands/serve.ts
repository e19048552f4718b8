import { Option, type Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { declareCommand } from '../command-list.js';
import { DEFAULT_PORT } from '../defaults.js';
import {
  addLimitOptions,
  checkServeAdminToken,
  hostList,
  integerIn,
  isoTime,
  journalSize,
  numberIn,
  operationCosts,
  sizeFlag,
  upstreamUrl,
} from '../options.js';
import type { ServeFlags } from '../serve/serve-flags.js';

/**
 * The most --record-buffer may hold: what it holds goes out in one write, one string, and a
 * string longer than V8's limit (about 512 Mi characters) cannot be made.
 */
const RECORD_BUFFER_MAX = {
  bytes: 256 * 1_048_576,
  text: '256mb',
  why: 'what it holds is written at once',
};

/** Registers `uas serve`. */
export function registerServe(program: Command, context: CommandContext): void {
  const command = declareCommand(program, 'serve')
    .option(
      '-p, --port <port>',
      'port to listen on (0 picks a free one)',
      integerIn(0, 65535),
      DEFAULT_PORT,
    )
    .option('--host <host>', 'address to listen on', hostArgument, '127.0.0.1')
    .option(
      '-c, --config <file>',
      'config file (JSON); default: the bundled fixtures/uas.config.json',
    );
  addUpstreamOptions(addServerOptions(addBehaviorOptions(addLimitOptions(command))))
    .addHelpText(
      'after',
      `
Examples:
  $ uas serve
  $ uas serve --port 8080 --caller-burst 3 --caller-rate 1/10s --otp fixed:123456
  $ uas serve --config my-uas.json --headers x-ratelimit --chaos 0.1 --log json
  $ uas serve --upstream https://sandbox.example.com --enforce shadow --record staging.ndjson`,
    )
    .action(async (flags: ServeFlags) => {
      // A worker of --workers runs the same command line.
      const args = context.argv.slice(context.argv.indexOf('serve'));
      context.stdoutIsLog = true;
      const { runServe } = await import('../serve/run-serve.js');
      context.exitCode = await runServe(flags, context, args);
    });
}

/** What the emulator does differently from the real service: faults, codes, costs, memory. */
function addBehaviorOptions(command: Command): Command {
  return command
    .option(
      '--shadow',
      'count requests but never reject them for an empty bucket (headers show what would happen; --chaos still answers 429)',
    )
    .option('--chaos <p>', 'answer 429 at random with probability p (0 to 1)', numberIn(0, 1))
    .option(
      '--chaos-retry-after <seconds>',
      'Retry-After of the 429s --chaos injects: whole seconds, or a range drawn from, such as "1-5" (default)',
    )
    .option('--latency <duration>', 'added latency, such as "100ms" or "50ms-200ms"')
    .option('--otp <mode>', 'one-time codes: random, or fixed:<digits> such as fixed:123456')
    .option('--otp-ttl <duration>', 'how long a code is valid, such as "10m"')
    .option('--otp-attempts <n>', 'wrong codes allowed before a code dies', integerIn(1, 1000))
    .option(
      '--cost <costs>',
      'tokens each operation takes, such as "start=2,verify=1" (default 1 each; may be repeated)',
      operationCosts,
    )
    .option(
      '--max-buckets <n>',
      'most buckets kept in memory (least recently used go first)',
      integerIn(1, 100_000_000),
    )
    .option(
      '--journal-size <n>',
      'requests kept in the journal (GET /__uas/journal, /requests), or "unbounded"',
      journalSize,
    )
    .option(
      '--record <file>',
      'append every request to this file as one JSON line (NDJSON), for uas check --journal',
    )
    .option(
      '--record-buffer <size>',
      'with --record: the most held while the file or its reader is slow; more is left out and counted (default: 16mb)',
      (text: string) => sizeFlag('--record-buffer', text, RECORD_BUFFER_MAX),
    )
    .addOption(
      new Option(
        '--clock <clock>',
        'system: the wall clock; manual: a clock that moves only by POST /__uas/clock',
      )
        .choices(['system', 'manual'])
        .default('system'),
    )
    .option(
      '--clock-start <time>',
      'with --clock manual: where the clock starts (ISO 8601 time; default: now)',
      isoTime,
    );
}

/** How the server runs: engine, log, screen, store, processes and who may use the dev API. */
function addServerOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--engine <engine>',
        'fast: the core called directly; msw: through msw handlers (and --handlers of your own)',
      )
        .choices(['fast', 'msw'])
        .default('fast'),
    )
    .option(
      '--handlers <module>',
      'with --engine msw: a module exporting msw `handlers` tried before the emulator',
    )
    .addOption(
      new Option('--log <mode>', 'request log on stdout')
        .choices(['pretty', 'json', 'off'])
        .default('pretty'),
    )
    .option(
      '--allowed-hosts <names>',
      'host names the dev API answers besides localhost and loopback addresses, comma-separated ("*" for any)',
      hostList,
    )
    .option('--tui', 'show the live bucket screen instead of the request log (q stops the server)')
    .option('--no-ui', 'do not serve the web dashboard at /__uas/ui/ (it answers 404 then)')
    .option('--open', 'open the web dashboard in a browser once listening (best effort)')
    .option(
      '--store <store>',
      'where buckets and codes live: memory (default), redis (a local redis-server started for it), redis://host:port/db, rediss://…, unix:///path/redis.sock, or a cluster: redis://host:port?cluster=1&seed=host:port',
    )
    .option('--store-prefix <prefix>', 'first part of every Redis key and channel (default: uas)')
    .addOption(
      new Option(
        '--on-store-error <mode>',
        'while Redis is unreachable: closed answers 503 (default); open lets bucket decisions through',
      ).choices(['open', 'closed']),
    )
    .option(
      '--workers <n>',
      'processes answering on the port (more than 1 needs --store redis or a Redis URL)',
      integerIn(1, 64),
      1,
    )
    .addOption(
      new Option(
        '--admin-token <token>',
        'require this bearer token on the dev API (needed to enable it beyond loopback)',
      ).env('UAS_ADMIN_TOKEN'),
    )
    .hook('preAction', (self) => {
      // A token from the environment is refused naming UAS_ADMIN_TOKEN: the user typed no flag.
      if (self.getOptionValueSource('adminToken') === 'env')
        checkServeAdminToken(String(self.getOptionValue('adminToken')), 'UAS_ADMIN_TOKEN');
    });
}

/** In front of the real service: where it is, who decides, and how it is trusted. */
function addUpstreamOptions(command: Command): Command {
  return command
    .option(
      '--upstream <url>',
      'forward the three operations to the real service at this base URL (http or https) and journal its answers',
      upstreamUrl,
    )
    .addOption(
      new Option(
        '--enforce <mode>',
        "with --upstream: upstream (default) lets only the real service decide; local refuses first with uas's buckets; shadow counts what they would refuse",
      ).choices(['upstream', 'local', 'shadow']),
    )
    .option(
      '--upstream-ca <file>',
      'with an https --upstream: PEM certificates to trust besides the system ones (TLS is always verified)',
    )
    .option(
      '--upstream-timeout <ms>',
      'with --upstream: milliseconds the real service has to answer, and between parts of its body (default 10000)',
      integerIn(1, 600_000),
    );
}

/**
 * The address of `--host`: an IPv6 one may be given in brackets, as in a URL (`[::1]`), and is
 * listened on without them.
 */
export function hostArgument(value: string): string {
  const bracketed = /^\[([^\]]*:[^\]]*)\]$/.exec(value);
  return bracketed?.[1] ?? value;
}
