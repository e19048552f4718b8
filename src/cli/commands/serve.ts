import { Option, type Command } from 'commander';
import type { EmulatorHttpServer } from '../../adapters/http/http-server.js';
import type { AnyEmulator } from '../../core/emulator.js';
import type { Engine } from '../../transport/http-transport.js';
import type { CommandContext } from '../command-context.js';
import {
  applyConfigFlags,
  configErrorToCli,
  loadConfigFile,
  configFlagsOf,
} from '../config-loader.js';
import { redactSecret } from '../../core/admin/redact.js';
import { DEFAULT_PORT } from '../defaults.js';
import { CliError, colorsFor, EXIT } from '../io.js';
import { allowLiveScreen } from '../live-screen.js';
import { importOptional } from '../optional-import.js';
import {
  addLimitOptions,
  hostList,
  integerIn,
  isLoopbackHost,
  isoTime,
  journalSize,
  numberIn,
  operationCosts,
  sizeFlag,
} from '../options.js';
import type { LogMode } from '../request-log.js';
import { isClockTime } from '../../core/time/clock.js';
import { pluralize } from '../../text/pluralize.js';
import { bannerBehavior, printBanner, type Banner } from '../serve/banner.js';
import {
  describeStoreStatus,
  openStore,
  startLocalRedis,
  storeSpec,
  type StoreSpec,
} from '../serve/serve-store.js';
import type { Recording } from '../serve/start-recording.js';
import { reportListening, workerRole } from '../serve/workers.js';

/** Options of `uas serve`, as commander parses them. */
interface ServeFlags {
  port: number;
  host: string;
  config?: string;
  clientBurst?: number;
  clientRate?: string;
  callerBurst?: number;
  callerRate?: string;
  callerScope?: string;
  retryAfter?: string;
  headers?: string;
  shadow?: boolean;
  chaos?: number;
  chaosRetryAfter?: string;
  latency?: string;
  otp?: string;
  otpTtl?: string;
  otpAttempts?: number;
  maxBuckets?: number;
  journalSize?: number | 'unbounded';
  record?: string;
  recordBuffer: number;
  clock: 'system' | 'manual';
  clockStart?: number;
  cost?: Record<string, number>;
  engine: 'fast' | 'msw';
  handlers?: string;
  log: LogMode;
  adminToken?: string;
  allowedHosts?: string[];
  tui?: boolean;
  store?: string;
  storePrefix?: string;
  onStoreError?: 'open' | 'closed';
  workers: number;
}

/** Registers `uas serve`. */
export function registerServe(program: Command, context: CommandContext): void {
  const command = program
    .command('serve')
    .description('run the emulator of the three endpoints, with its dev API under /__uas')
    .option(
      '-p, --port <port>',
      'port to listen on (0 picks a free one)',
      integerIn(0, 65535),
      DEFAULT_PORT,
    )
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option(
      '-c, --config <file>',
      'config file (JSON); default: the bundled fixtures/uas.config.json',
    );
  addLimitOptions(command)
    .option('--shadow', 'count requests but never reject them (headers show what would happen)')
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
      'tokens each operation takes, such as "start=2,verify=1" (default 1 each)',
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
      'with --record: the most held while the file or its reader is slow; more is left out and counted',
      (text: string) => sizeFlag('--record-buffer', text),
      16 * 1_048_576,
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
    )
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
    .option(
      '--store <store>',
      'where buckets and codes live: memory (default), redis (a local redis-server started for it), redis://host:port/db, rediss://… or unix:///path/redis.sock',
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
    .addHelpText(
      'after',
      `
Examples:
  $ uas serve
  $ uas serve --port 8080 --caller-burst 3 --caller-rate 1/10s --otp fixed:123456
  $ uas serve --config my-uas.json --headers x-ratelimit --chaos 0.1 --log json`,
    )
    .action(async (flags: ServeFlags) => {
      // A worker of --workers runs the same command line.
      const args = context.argv.slice(context.argv.indexOf('serve'));
      try {
        context.exitCode = await serve(flags, context, args);
      } finally {
        // A worker's channel to its primary would keep it alive once everything else has
        // stopped, or when it could not start (its error is then printed, and it must exit).
        // (The worker's own disconnect, not the process's: that one would exit 0 at once.)
        if (workerRole(context.io.env) !== undefined)
          (await import('node:cluster')).default.worker?.disconnect();
      }
    });
}

async function serve(flags: ServeFlags, context: CommandContext, args: string[]): Promise<number> {
  const { io } = context;
  const chalk = colorsFor(io.stdout, io.env);
  const loaded = await loadConfigFile(flags.config, io.cwd);
  const overrides = configFlagsOf(flags);
  const storeFlag = flags.storePrefix !== undefined ? '--store-prefix' : '--on-store-error';
  if (flags.storePrefix !== undefined || flags.onStoreError !== undefined) {
    const fileStore = loaded.config.store as { url?: unknown } | undefined;
    const url = flags.store ?? fileStore?.url;
    if (url === undefined || url === 'memory')
      throw new CliError(
        `${storeFlag} applies to a Redis store: add --store redis (a local redis-server started for it) or --store redis://host:6379`,
        EXIT.usage,
      );
  }
  const loopback = isLoopbackHost(flags.host);
  if (flags.handlers !== undefined && flags.engine !== 'msw')
    throw new CliError('--handlers needs --engine msw', EXIT.usage);

  if (flags.adminToken !== undefined && !/^[\x21-\x7e]{1,512}$/.test(flags.adminToken))
    throw new CliError(
      flags.adminToken === ''
        ? '--admin-token (or UAS_ADMIN_TOKEN) is empty; give a token, or unset it'
        : 'invalid --admin-token: expected 1 to 512 printable ASCII characters without spaces',
      EXIT.usage,
    );
  if (flags.clockStart !== undefined && flags.clock !== 'manual')
    throw new CliError('--clock-start needs --clock manual', EXIT.usage);
  if (flags.clockStart !== undefined && !isClockTime(flags.clockStart))
    throw new CliError(
      'invalid --clock-start: expected a time in the years 0000 to 9999',
      EXIT.usage,
    );
  if (flags.workers > 1 && flags.tui)
    throw new CliError('--tui shows one process; it cannot run with --workers', EXIT.usage);
  const [{ createEmulator, createSharedEmulator }, { isConfigError }, { createManualClock }] =
    await Promise.all([
      import('../../emulator.js'),
      import('../../core/config/config-error.js'),
      import('../../core/time/clock.js'),
    ]);
  const config = applyConfigFlags(loaded.config, overrides);
  const configError = (error: unknown) => {
    if (!isConfigError(error)) throw error;
    return configErrorToCli(error, overrides, `config in ${loaded.path}`);
  };
  // Checked here, before a store is opened or a worker started, so a mistake is told once.
  try {
    (await import('../../core/config/config.js')).resolveConfig(config);
  } catch (error) {
    throw configError(error);
  }
  // The screen is checked before anything listens: without a terminal, or without ink, the
  // command stops with its one-line error and nothing else.
  const screen = flags.tui ? await loadScreen(io) : undefined;
  const spec = storeSpec(config);
  const role = workerRole(io.env);
  const clockStart = role?.clockStart ?? flags.clockStart ?? Date.now();
  const write = (line: string) => io.stdout.write(`${line}\n`);
  const note = noteWriter(flags.log, io, chalk);

  if (flags.workers > 1 && role === undefined)
    return serveWithWorkers(flags, spec, config, clockStart, args, { io, chalk, write, note });

  const opened = await openStore(spec, {
    config,
    url: role?.storeUrl,
    manualClock: flags.clock === 'manual' ? { startMs: clockStart } : undefined,
    onStatus: (status, target) =>
      note(status.state, describeStoreStatus(status, target, spec.onError ?? 'closed')),
    onWarning: (message) => note('warning', `store: ${message}`),
  });
  const devApi = {
    enabled: loopback || flags.adminToken !== undefined,
    adminToken: flags.adminToken,
  };
  // A file that cannot be opened stops the start before the server listens (exit 2).
  let recording: Recording | undefined;
  try {
    recording =
      flags.record === undefined
        ? undefined
        : (await import('../serve/start-recording.js')).openRecording(
            flags.record,
            io.cwd,
            flags.recordBuffer,
            (line) => io.stderr.write(`${line}\n`),
          );
  } catch (error) {
    await opened?.close();
    throw error;
  }
  const stopRecording = async () => recording?.stop();
  const moreMetrics = recording?.metrics;
  let emulator: AnyEmulator;
  try {
    emulator =
      opened === undefined
        ? createEmulator({
            clock: flags.clock === 'manual' ? createManualClock(clockStart) : undefined,
            config,
            devApi,
            moreMetrics,
          })
        : createSharedEmulator({
            clock: opened.store.clock,
            config,
            devApi,
            store: opened.store,
            moreMetrics,
          });
  } catch (error) {
    await stopRecording();
    await opened?.close();
    throw configError(error);
  }
  recording?.attach(emulator);

  const { listen } = await import('../../adapters/http/http-server.js');
  let running: EmulatorHttpServer;
  try {
    const engine =
      flags.engine === 'msw' ? await mswEngine(emulator, flags.handlers, io.cwd) : undefined;
    running = await listen(emulator, flags.port, flags.host, {
      engine,
      allowedHosts: flags.allowedHosts,
    });
  } catch (error) {
    await stopRecording();
    await opened?.close();
    throw listenError(error as NodeJS.ErrnoException, flags);
  }
  const stopAll = async () => {
    await running.close(3_000);
    await opened?.close();
  };
  // Listen for signals before printing anything: whoever reads the banner may signal at once.
  let signalled: (signal: string) => void = () => {};
  const stopSignal = new Promise<string>((resolve) => (signalled = resolve));
  const removeSignal = flags.tui ? () => {} : io.onSignal((signal) => signalled(signal));

  const { createRequestLogger } = await import('../request-log.js');
  const banner: Banner = {
    type: 'listening',
    url: running.url,
    engine: flags.engine,
    config: loaded.path,
    bundled: loaded.bundled,
    clients: emulator.config.clients.map((client) => ({
      id: client.id,
      // The demo tokens are public; a config's own are not printed.
      token: loaded.bundled ? client.token : redactSecret(client.token),
      merchants: client.merchants,
    })),
    limits: {
      client: `${pluralize(emulator.config.limits.client.burst, 'token')} at ${emulator.config.limits.client.rateText}`,
      caller: `${pluralize(emulator.config.limits.caller.burst, 'token')} at ${emulator.config.limits.caller.rateText}`,
    },
    store:
      opened === undefined
        ? { kind: 'memory' }
        : {
            kind: 'redis',
            url: opened.store.target,
            embedded: opened.embedded !== undefined || role?.storeUrl.startsWith('unix:') === true,
            prefix: opened.store.prefix,
            on_error: opened.store.onError,
            joined: opened.store.joined,
          },
    ...bannerBehavior(emulator.config),
    workers: role === undefined ? 1 : flags.workers,
    clock: { mode: flags.clock, now: new Date(emulator.clock.now()).toISOString() },
    dev_api: emulator.devApi.enabled ? `${running.url}/__uas` : null,
    admin_token: flags.adminToken !== undefined,
  };
  if (role !== undefined) reportListening(banner);
  else if (flags.log === 'json') write(JSON.stringify(banner));
  else printBanner(banner, write, chalk);

  if (screen !== undefined) {
    allowLiveScreen();
    await screen.runTui(
      screen.createLocalSource(emulator, running.url),
      'uas serve',
      screen.terminal,
    );
    await stopAll();
    await stopRecording();
    return EXIT.ok;
  }

  const logger = createRequestLogger(flags.log, io.stdout, chalk);
  const unsubscribe = logger === undefined ? () => {} : emulator.subscribe(logger);

  // The local redis-server of --store redis held the state: without it, nothing can be answered.
  const lost = opened?.embedded?.exited.then((reason) => ({ reason }));
  const stopped = await (lost === undefined ? stopSignal : Promise.race([stopSignal, lost]));
  removeSignal();
  if (typeof stopped !== 'string') {
    io.stderr.write(`uas: ${stopped.reason}; stopping\n`);
    unsubscribe();
    await stopAll();
    await stopRecording();
    return EXIT.failure;
  }
  const signal = stopped;
  // A worker's primary says it once for all.
  if (role === undefined)
    write(
      flags.log === 'json'
        ? JSON.stringify({ type: 'shutdown', signal })
        : chalk.dim(`${signal}: shutting down`),
    );
  unsubscribe();
  await stopAll();
  await stopRecording();
  return EXIT.ok;
}

/** The live screen of `--tui`, loaded, with the terminal it draws on. */
async function loadScreen(io: CommandContext['io']) {
  const terminal = io.terminal;
  if (terminal === undefined || !terminal.stdout.isTTY || !terminal.stdin.isTTY)
    throw new CliError(
      '--tui needs a terminal (stdin and stdout); use `uas top --once` for a snapshot',
      EXIT.usage,
    );
  const [{ runTui }, { createLocalSource }] = await importOptional(
    () => Promise.all([import('../../tui/run-tui.js'), import('../../tui/tui-source.js')]),
    'screen',
    'uas serve --tui',
  );
  return { runTui, createLocalSource, terminal };
}

/**
 * `uas serve --workers N`: checks the shared store once (starting the local redis-server of
 * `--store redis`), then runs N workers on the port.
 */
async function serveWithWorkers(
  flags: ServeFlags,
  spec: StoreSpec,
  config: unknown,
  clockStart: number,
  args: string[],
  out: {
    io: CommandContext['io'];
    chalk: ReturnType<typeof colorsFor>;
    write(line: string): void;
    note: ReturnType<typeof noteWriter>;
  },
): Promise<number> {
  if (spec.url === 'memory')
    throw new CliError(
      `--workers ${flags.workers} needs a store the processes share: add --store redis (a local redis-server started for it) or --store redis://host:6379`,
      EXIT.usage,
    );
  const embedded = spec.url === 'redis' ? await startLocalRedis() : undefined;
  const storeUrl = embedded?.url ?? spec.url;
  try {
    // Reachable, and the config seeds (or joins) the shared state, before any worker starts.
    const probe = await openStore(spec, {
      config,
      url: storeUrl,
      onStatus: () => {},
      onWarning: () => {},
    });
    await probe?.close();
    const joined = probe?.store.joined === true;
    const { runWorkers } = await import('../serve/workers.js');
    const code = await runWorkers({
      count: flags.workers,
      args,
      role: { storeUrl, clockStart },
      io: out.io,
      printBanner: (worker) => {
        // Whether live state was there to join is the primary's to say: it connected first.
        const banner =
          worker.store.kind === 'redis'
            ? { ...worker, store: { ...worker.store, joined } }
            : worker;
        if (flags.log === 'json') out.write(JSON.stringify(banner));
        else printBanner(banner, out.write, out.chalk);
      },
      print: (line) => out.note('warning', line),
      failWhen: embedded?.exited,
    });
    out.write(
      flags.log === 'json'
        ? JSON.stringify({ type: 'shutdown', workers: flags.workers })
        : out.chalk.dim('workers stopped'),
    );
    return code;
  } finally {
    await embedded?.stop();
  }
}

/**
 * Writes a line about the server itself (the store went away, a worker restarted): in the log's
 * format on stdout, or on stderr when the request log is off.
 */
function noteWriter(log: LogMode, io: CommandContext['io'], chalk: ReturnType<typeof colorsFor>) {
  return (state: string, message: string) => {
    if (log === 'json') io.stdout.write(`${JSON.stringify({ type: 'note', state, message })}\n`);
    else if (log === 'pretty')
      io.stdout.write(`${state === 'up' ? chalk.green(message) : chalk.yellow(message)}\n`);
    else io.stderr.write(`uas: ${message}\n`);
  };
}

function listenError(error: NodeJS.ErrnoException, flags: ServeFlags): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new CliError(
        `port ${flags.port} is already in use on ${flags.host}; choose another with --port`,
        EXIT.failure,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new CliError(`cannot listen on ${flags.host}: no such local address`, EXIT.usage);
    case 'EACCES':
      return new CliError(
        `no permission to listen on port ${flags.port}; choose a port above 1023`,
        EXIT.failure,
      );
    default:
      return error;
  }
}

/** The msw engine over the user's handlers (`--handlers`), loaded from their module. */
async function mswEngine(
  emulator: AnyEmulator,
  handlersFile: string | undefined,
  cwd: string,
): Promise<Engine> {
  const [{ createMswEngine }, { pathToFileURL }, { resolve }] = await Promise.all([
    importOptional(
      () => import('../../adapters/msw/msw-engine.js'),
      'msw',
      'uas serve --engine msw',
    ),
    import('node:url'),
    import('node:path'),
  ]);
  let handlers: import('msw').RequestHandler[] = [];
  if (handlersFile !== undefined) {
    const file = resolve(cwd, handlersFile);
    let loaded: { handlers?: unknown; default?: unknown };
    try {
      loaded = (await import(pathToFileURL(file).href)) as typeof loaded;
    } catch (error) {
      throw new CliError(
        `cannot load --handlers ${file}: ${(error as Error).message.split('\n')[0]}`,
        EXIT.usage,
      );
    }
    const list = loaded.handlers ?? loaded.default;
    if (!Array.isArray(list))
      throw new CliError(
        `--handlers ${file} must export an array named "handlers" (or a default array) of msw handlers`,
        EXIT.usage,
      );
    handlers = list as import('msw').RequestHandler[];
  }
  return createMswEngine(emulator, handlers);
}
