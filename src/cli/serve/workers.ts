import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:cluster';
import { EXIT, type CliIO } from '../io.js';
import type { Banner } from './banner.js';

/** What a worker of `uas serve --workers N` is told by its primary, through its environment. */
export interface WorkerRole {
  /** 1 to N. */
  index: number;
  /** The store the primary chose (the socket of the redis-server it started, for `--store redis`). */
  storeUrl: string;
  /** Where a manual clock starts: the same for every worker. */
  clockStart: number;
}

const ENV = {
  index: 'UAS_WORKER_INDEX',
  store: 'UAS_WORKER_STORE',
  clockStart: 'UAS_WORKER_CLOCK_START',
} as const;

/** The role of this process when a primary started it as a worker; undefined otherwise. */
export function workerRole(
  env: Readonly<Record<string, string | undefined>>,
): WorkerRole | undefined {
  const index = Number(env[ENV.index]);
  const storeUrl = env[ENV.store];
  const clockStart = Number(env[ENV.clockStart]);
  if (!Number.isSafeInteger(index) || index < 1 || storeUrl === undefined) return undefined;
  return { index, storeUrl, clockStart: Number.isFinite(clockStart) ? clockStart : Date.now() };
}

/** What a worker sends its primary once it listens. */
interface ListeningMessage {
  type: 'uas-listening';
  banner: Banner;
}

/** Tells the primary that this worker listens (the primary prints the banner once all do). */
export function reportListening(banner: Banner): void {
  process.send?.({ type: 'uas-listening', banner } satisfies ListeningMessage);
}

/** The longest wait before a worker that could not start is tried again. */
const MAX_RESTART_DELAY_MS = 30_000;

/** How long workers have to stop once told to, before they are killed. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Runs `uas serve` in `count` worker processes that share one port (node:cluster hands each
 * new connection to a worker in turn) and one store. Prints the banner once every worker
 * listens; starts a new worker when one dies; on SIGINT or SIGTERM, stops them all and waits.
 * Resolves with the exit code.
 */
export async function runWorkers(options: {
  count: number;
  /** The command line of a worker: `serve` and its flags. */
  args: string[];
  role: Omit<WorkerRole, 'index'>;
  io: CliIO;
  printBanner(banner: Banner): void;
  print(line: string): void;
  /** Stops every worker, exit 1, when it resolves, after printing what it says. */
  failWhen?: Promise<string> | undefined;
}): Promise<number> {
  const cluster = (await import('node:cluster')).default;
  const { io } = options;
  cluster.setupPrimary({
    exec: fileURLToPath(new URL('../../../bin/uas.js', import.meta.url)),
    args: options.args,
  });
  let stopping = false;
  let banner: Banner | undefined;
  const listening = new Set<number>();
  const alive = new Map<number, Worker>();
  /** Starts in a row that failed, per worker: the wait before the next grows with them. */
  const failed = new Map<number, number>();
  const restarts = new Set<NodeJS.Timeout>();
  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((resolve) => (finish = resolve));

  const fork = (index: number) => {
    const worker = cluster.fork({
      [ENV.index]: String(index),
      [ENV.store]: options.role.storeUrl,
      [ENV.clockStart]: String(options.role.clockStart),
    });
    alive.set(index, worker);
    let ready = false;
    worker.on('message', (message: ListeningMessage) => {
      if (message?.type !== 'uas-listening') return;
      ready = true;
      failed.delete(index);
      listening.add(index);
      if (banner === undefined && listening.size === options.count) {
        banner = message.banner;
        options.printBanner(banner);
      }
    });
    worker.on('exit', (code, signal) => {
      alive.delete(index);
      listening.delete(index);
      if (stopping) {
        if (alive.size === 0) finish(exitCode);
        return;
      }
      const how = signal === null ? `exit code ${code}` : signal;
      if (!ready && banner === undefined) {
        // It could not start (its error is on stderr): the others would fail alike.
        options.print(`worker ${index} failed to start (${how}); stopping`);
        stop(EXIT.failure);
        return;
      }
      // Once the server runs, a worker is replaced, however it went: one that cannot start (its
      // store away for a while, say) is tried again later, less often each time it fails.
      const failures = ready ? 0 : (failed.get(index) ?? 0) + 1;
      failed.set(index, failures);
      const delayMs = failures === 0 ? 0 : Math.min(500 * 2 ** failures, MAX_RESTART_DELAY_MS);
      options.print(
        `uas: worker ${index} ${ready ? 'stopped' : 'could not start'} (${how}); starting another${delayMs === 0 ? '' : ` in ${delayMs / 1000} s`}`,
      );
      const timer = setTimeout(() => {
        restarts.delete(timer);
        if (!stopping) fork(index);
      }, delayMs);
      restarts.add(timer);
    });
  };

  let exitCode: number = EXIT.ok;
  function stop(code: number): void {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    for (const timer of restarts) clearTimeout(timer);
    restarts.clear();
    if (alive.size === 0) finish(code);
    for (const worker of alive.values()) worker.process.kill('SIGTERM');
    // A worker that does not stop in time is killed.
    setTimeout(() => {
      for (const worker of alive.values()) worker.process.kill('SIGKILL');
    }, SHUTDOWN_GRACE_MS).unref();
  }

  const removeSignal = io.onSignal((signal) => {
    if (stopping) return;
    options.print(`${signal}: shutting down ${alive.size} workers`);
    stop(EXIT.ok);
  });
  void options.failWhen?.then((reason) => {
    if (stopping) return;
    options.print(`${reason}; stopping ${alive.size} workers`);
    stop(EXIT.failure);
  });
  for (let index = 1; index <= options.count; index++) fork(index);
  await finished;
  removeSignal();
  return exitCode;
}
