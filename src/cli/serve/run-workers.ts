import type { Worker } from 'node:cluster';
import { EXIT, type CliIO } from '../io.js';
import { packageFile } from '../package-file.js';
import { STANDALONE } from '../standalone.js';
import type { Banner } from './banner.js';
import { WORKER_ENV, type ListeningMessage, type WorkerRole } from './worker-role.js';

/** The longest wait before a worker that could not start is tried again. */
const MAX_RESTART_DELAY_MS = 30_000;

/** How long workers have to stop once told to, before they are killed. */
const SHUTDOWN_GRACE_MS = 10_000;

/** Options of {@link runWorkers}. */
export interface WorkersOptions {
  count: number;
  /** The command line of a worker: `serve` and its flags. */
  args: string[];
  role: Omit<WorkerRole, 'index'>;
  io: CliIO;
  printBanner(banner: Banner): void;
  print(line: string): void;
  /** Stops every worker, exit 1, when it resolves, after printing what it says. */
  failWhen?: Promise<string> | undefined;
}

/** The workers of one run, and where they are. */
interface Pool {
  options: WorkersOptions;
  cluster: typeof import('node:cluster').default;
  stopping: boolean;
  exitCode: number;
  /** The banner printed once every worker listened. */
  banner: Banner | undefined;
  listening: Set<number>;
  alive: Map<number, Worker>;
  /** Starts in a row that failed, per worker: the wait before the next grows with them. */
  failed: Map<number, number>;
  restarts: Set<NodeJS.Timeout>;
  finish(code: number): void;
}

/**
 * Runs `uas serve` in `count` worker processes that share one port (node:cluster hands each
 * new connection to a worker in turn) and one store. Prints the banner once every worker
 * listens; starts a new worker when one dies; on SIGINT, SIGTERM or SIGHUP, stops them all and waits.
 * Resolves with the exit code.
 */
export async function runWorkers(options: WorkersOptions): Promise<number> {
  const cluster = (await import('node:cluster')).default;
  cluster.setupPrimary(
    // The standalone executable runs itself: what follows it on its command line is uas's.
    STANDALONE
      ? { exec: options.args[0] ?? 'serve', args: options.args.slice(1), execArgv: [] }
      : { exec: packageFile('bin/uas.js'), args: options.args },
  );
  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((resolve) => (finish = resolve));
  const pool: Pool = {
    options,
    cluster,
    stopping: false,
    exitCode: EXIT.ok,
    banner: undefined,
    listening: new Set(),
    alive: new Map(),
    failed: new Map(),
    restarts: new Set(),
    finish: (code) => finish(code),
  };
  const removeSignal = options.io.onSignal((signal) => {
    if (pool.stopping) return;
    options.print(`${signal}: shutting down ${pool.alive.size} workers`);
    stopPool(pool, EXIT.ok);
  });
  void options.failWhen?.then((reason) => {
    if (pool.stopping) return;
    options.print(`${reason}; stopping ${pool.alive.size} workers`);
    stopPool(pool, EXIT.failure);
  });
  for (let index = 1; index <= options.count; index++) fork(pool, index);
  await finished;
  removeSignal();
  return pool.exitCode;
}

/** Starts worker `index`, and watches it. */
function fork(pool: Pool, index: number): void {
  const worker = pool.cluster.fork({
    [WORKER_ENV.index]: String(index),
    [WORKER_ENV.store]: pool.options.role.storeUrl,
    [WORKER_ENV.clockStart]: String(pool.options.role.clockStart),
    [WORKER_ENV.configFile]: pool.options.role.configFile ?? '',
  });
  pool.alive.set(index, worker);
  let ready = false;
  worker.on('message', (message: ListeningMessage) => {
    if (message?.type !== 'uas-listening') return;
    ready = true;
    pool.failed.delete(index);
    pool.listening.add(index);
    if (pool.banner === undefined && pool.listening.size === pool.options.count) {
      pool.banner = message.banner;
      pool.options.printBanner(pool.banner);
    }
  });
  worker.on('exit', (code, signal) => {
    pool.alive.delete(index);
    pool.listening.delete(index);
    if (pool.stopping) {
      if (pool.alive.size === 0) pool.finish(pool.exitCode);
      return;
    }
    replace(pool, index, ready, signal === null ? `exit code ${code}` : signal);
  });
}

/**
 * A worker went (`how`) while the server runs: it is started again, at once when it had been
 * listening, later (less often each time) when it could not start, its store away for a while
 * say. One that fails before the server ever listened stops them all: the others would fail
 * alike.
 */
function replace(pool: Pool, index: number, ready: boolean, how: string): void {
  if (!ready && pool.banner === undefined) {
    // It could not start (its error is on stderr).
    pool.options.print(`worker ${index} failed to start (${how}); stopping`);
    stopPool(pool, EXIT.failure);
    return;
  }
  const failures = ready ? 0 : (pool.failed.get(index) ?? 0) + 1;
  pool.failed.set(index, failures);
  const delayMs = failures === 0 ? 0 : Math.min(500 * 2 ** failures, MAX_RESTART_DELAY_MS);
  pool.options.print(
    `worker ${index} ${ready ? 'stopped' : 'could not start'} (${how}); starting another${delayMs === 0 ? '' : ` in ${delayMs / 1000} s`}`,
  );
  const timer = setTimeout(() => {
    pool.restarts.delete(timer);
    if (!pool.stopping) fork(pool, index);
  }, delayMs);
  pool.restarts.add(timer);
}

/** Tells every worker to stop (SIGTERM), and kills those still there after the grace period. */
function stopPool(pool: Pool, code: number): void {
  if (pool.stopping) return;
  pool.stopping = true;
  pool.exitCode = code;
  for (const timer of pool.restarts) clearTimeout(timer);
  pool.restarts.clear();
  if (pool.alive.size === 0) pool.finish(code);
  for (const worker of pool.alive.values()) worker.process.kill('SIGTERM');
  // A worker that does not stop in time is killed.
  setTimeout(() => {
    for (const worker of pool.alive.values()) worker.process.kill('SIGKILL');
  }, SHUTDOWN_GRACE_MS).unref();
}
