import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The command line of a redis-server without persistence, its files in `dir`, listening on a
 * loopback port, or on a Unix socket only (no TCP port, so nothing else on the network reaches
 * it).
 */
export function redisServerArgs(dir: string, listen: { port: number } | { socket: string }) {
  const on =
    'port' in listen
      ? ['--port', String(listen.port), '--bind', '127.0.0.1']
      : ['--port', '0', '--unixsocket', listen.socket, '--unixsocketperm', '700'];
  return [...on, '--dir', dir, '--save', '', '--appendonly', 'no'];
}

/** A redis-server started for one `uas serve` (`--store redis` without a URL). */
export interface EmbeddedRedis {
  /** `unix:///…/redis.sock`: reachable by this machine's processes only. */
  readonly url: string;
  /**
   * Resolves, with what happened, when it exits other than through {@link stop} (killed, out of
   * memory): its state is gone, and the server that started it should stop too.
   */
  readonly exited: Promise<string>;
  /** Stops it and removes its directory. */
  stop(): Promise<void>;
}

/** Why an embedded Redis could not start; `missing` when no redis-server is installed. */
export class EmbeddedRedisError extends Error {
  constructor(
    message: string,
    readonly missing: boolean,
  ) {
    super(message);
  }
}

/**
 * Starts `redis-server` listening on a Unix socket in a new temporary directory (no TCP port, so
 * nothing else on the network reaches it), without persistence: its state lives as long as the
 * server that started it.
 */
export async function startEmbeddedRedis(binary = 'redis-server'): Promise<EmbeddedRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'uas-redis-'));
  const socket = join(dir, 'redis.sock');
  const child = spawn(binary, redisServerArgs(dir, { socket }), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const unwatch = stopOnSignal(child, dir);
  let output = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new EmbeddedRedisError(`${binary} did not start within 10 s`, false)),
        10_000,
      );
      const done = (error?: Error) => {
        clearTimeout(timer);
        if (error === undefined) resolve();
        else reject(error);
      };
      child.stdout.on('data', (chunk: Buffer) => {
        output = `${output}${chunk.toString()}`.slice(-4096);
        if (/ready to accept connections/i.test(output)) done();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        output = `${output}${chunk.toString()}`.slice(-4096);
      });
      child.once('error', (error: NodeJS.ErrnoException) =>
        done(
          new EmbeddedRedisError(
            error.code === 'ENOENT'
              ? `${binary} is not installed`
              : `${binary} could not start: ${error.message}`,
            error.code === 'ENOENT',
          ),
        ),
      );
      child.once('exit', (code) => {
        const last = output.trim().split('\n').at(-1) ?? '';
        done(new EmbeddedRedisError(`${binary} exited (${code}): ${last}`, false));
      });
    });
  } catch (error) {
    unwatch();
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  child.stdout.resume();
  child.stderr.resume();
  let stopping = false;
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      if (!stopping)
        resolve(
          `the local redis-server of --store redis exited (${signal ?? `exit code ${code}`}); its state is gone`,
        );
    });
  });
  return {
    url: `unix://${socket}`,
    exited,
    async stop() {
      stopping = true;
      unwatch();
      if (child.exitCode === null && child.signalCode === null)
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The signals that stop `uas serve` (see io.ts). */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Stops the redis-server with this process when a signal ends it while nothing else listens for
 * one: before `uas serve` has started (it listens from its banner on) or after it gave up
 * waiting. Without this, `kill <pid>` during the start (which reaches this process, not its
 * group, as Ctrl-C does) left the redis-server running and its folder behind. Once the server
 * listens too, its own shutdown stops the redis-server. Returns what stops the watch.
 */
function stopOnSignal(child: ChildProcess, dir: string): () => void {
  const listener = (signal: NodeJS.Signals) => {
    if (process.listenerCount(signal) > 1) return;
    unwatch();
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    // Ended by the signal as it would have been without this listener.
    process.kill(process.pid, signal);
  };
  const unwatch = () => {
    for (const signal of STOP_SIGNALS) process.off(signal, listener);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, listener);
  return unwatch;
}
