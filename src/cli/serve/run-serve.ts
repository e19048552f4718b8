import type { EmbeddedRedis } from '../../store/redis/embedded-redis.js';
import type { CommandContext } from '../command-context.js';
import {
  applyConfigFlags,
  configErrorToCli,
  configFilePath,
  configFlagsOf,
  loadConfigFile,
} from '../config-loader.js';
import type { CliIO } from '../io.js';
import { allowLiveScreen } from '../live-screen.js';
import { printBanner } from './banner.js';
import { openDashboard } from './open-dashboard.js';
import { checkServeFlags } from './check-serve-flags.js';
import { listeningBanner } from './listening-banner.js';
import { loadScreen } from './load-screen.js';
import type { ServeFlags } from './serve-flags.js';
import { serveOutput, warnBlockedPort, type ServeOutput } from './serve-output.js';
import { storeSpec } from './serve-store.js';
import { serveWithWorkers } from './serve-with-workers.js';
import { shutDown, type ServeStop } from './shut-down.js';
import { startServer, type StartedServer } from './start-server.js';
import { reportListening, workerRole, type WorkerRole } from './worker-role.js';

/**
 * Runs `uas serve` until it is stopped, and resolves with the exit code; `args` is its command
 * line (`serve` and its flags), which the workers of `--workers` run too.
 */
export async function runServe(
  flags: ServeFlags,
  context: CommandContext,
  args: string[],
): Promise<number> {
  try {
    return await serve(flags, context.io, args);
  } finally {
    // A worker's channel to its primary would keep it alive once everything else has
    // stopped, or when it could not start (its error is then printed, and it must exit).
    // (The worker's own disconnect, not the process's: that one would exit 0 at once.)
    if (workerRole(context.io.env) !== undefined)
      (await import('node:cluster')).default.worker?.disconnect();
  }
}

async function serve(flags: ServeFlags, io: CliIO, args: string[]): Promise<number> {
  const role = workerRole(io.env);
  const loaded = await loadServeConfig(flags, io, role);
  checkServeFlags(flags, loaded.config);
  const overrides = configFlagsOf(flags);
  const config = applyConfigFlags(loaded.config, overrides);
  const { isConfigError } = await import('../../core/config/config-error.js');
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
  // Ink decides whether to draw live when it is imported: the CI variables are neutralised first.
  if (flags.tui) allowLiveScreen();
  const screen = flags.tui ? await loadScreen(io) : undefined;
  const spec = storeSpec(config);
  const clockStart = role?.clockStart ?? flags.clockStart ?? Date.now();
  const out = serveOutput(flags.log, io);
  if (flags.workers > 1 && role === undefined)
    return serveWithWorkers(flags, spec, config, clockStart, args, out);

  const started = await startServer({
    flags,
    io,
    config,
    spec,
    role,
    clockStart,
    note: out.note,
    configError,
  });
  const { emulator, server, parts } = started;
  if (screen !== undefined) {
    announce(flags, role, out, started, loaded);
    await screen.runTui(
      screen.createLocalSource(emulator, server.url),
      'uas serve',
      screen.terminal,
    );
    return shutDown(parts, { by: 'screen' });
  }
  // Listen for signals, and log requests, from the banner on: whoever reads it may send a
  // request or a signal at once (nothing is awaited between the banner and the log).
  const stopped = whenStopped(io, started.store?.embedded);
  const { createRequestLogger } = await import('../request-log.js');
  announce(flags, role, out, started, loaded);
  const logger = createRequestLogger(flags.log, io.stdout, out.chalk);
  if (logger !== undefined) parts.unsubscribe = emulator.subscribe(logger);
  return shutDown(parts, await stopped, (stop) => tellStop(stop, flags, role, out));
}

/**
 * Resolves when SIGINT, SIGTERM or SIGHUP comes (listened for from now on), or when the local
 * redis-server of `--store redis` goes away with the state: without it nothing can be answered.
 */
function whenStopped(io: CliIO, embedded: EmbeddedRedis | undefined): Promise<ServeStop> {
  let removeSignal = () => {};
  const signalled = new Promise<ServeStop>((resolve) => {
    removeSignal = io.onSignal((signal) => resolve({ by: 'signal', signal }));
  });
  const lost = embedded?.exited.then((reason): ServeStop => ({ by: 'store-lost', reason }));
  return Promise.race(lost === undefined ? [signalled] : [signalled, lost]).finally(removeSignal);
}

/** Says where the server listens: to a worker's primary, or as the banner. */
function announce(
  flags: ServeFlags,
  role: WorkerRole | undefined,
  out: ServeOutput,
  started: StartedServer,
  loaded: { path: string; bundled: boolean },
): void {
  const banner = listeningBanner({ ...started, flags, loaded, role });
  if (role !== undefined) reportListening(banner);
  else if (flags.log === 'json') out.write(JSON.stringify(banner));
  else printBanner(banner, out.write, out.chalk);
  if (role === undefined) warnBlockedPort(banner.url, out);
  if (flags.open === true && role === undefined) void openDashboard(banner.dashboard, out);
}

/** The process's line about why it stops. */
function tellStop(
  stop: ServeStop,
  flags: ServeFlags,
  role: WorkerRole | undefined,
  out: ServeOutput,
): void {
  if (stop.by === 'store-lost') out.io.stderr.write(`uas: ${stop.reason}; stopping\n`);
  // A worker's primary says it once for all.
  else if (stop.by === 'signal' && role === undefined)
    out.write(
      flags.log === 'json'
        ? JSON.stringify({ type: 'shutdown', signal: stop.signal })
        : out.chalk.dim(`${stop.signal}: shutting down`),
    );
}

/**
 * The config file of `--config`; in a worker, the copy its primary wrote of the config it read
 * (named as the file given): the file given may be a pipe already read, or changed since.
 */
async function loadServeConfig(flags: ServeFlags, io: CliIO, role: WorkerRole | undefined) {
  if (role?.configFile === undefined) return loadConfigFile(flags.config, io.cwd);
  const copy = await loadConfigFile(role.configFile, io.cwd);
  return {
    ...copy,
    path: configFilePath(flags.config, io.cwd),
    bundled: flags.config === undefined,
  };
}
